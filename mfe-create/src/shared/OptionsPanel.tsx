import { useId, useState, type ReactNode } from 'react';
import type { StylePreset } from '@productgen/platform-client';
import { Slider, Spinner } from '@productgen/ui-kit';
import { MIN_IMAGES } from './choices';
import { useCreateLimits } from './limits';
import styles from './OptionsPanel.module.css';

export type PresetsLoad = { state: 'idle' | 'loading' | 'failed' } | { state: 'loaded'; presets: StylePreset[] };

export interface OptionsPanelProps {
  count: number;
  onCount: (count: number) => void;
  presetsLoad: PresetsLoad;
  chosenPresetIds: readonly string[];
  onTogglePreset: (id: string) => void;
  disabled: boolean;
  /** The slider's label: "Number of Images" (single) or per product (batch). */
  countLabel?: string;
  /** Shown when the user has no presets to offer. */
  noPresetsNote?: string;
  /** How a preset is named in the checklist (the batch adds its category). */
  presetLabel?: (preset: StylePreset) => ReactNode;
}

const NO_PRESETS_FOR_CATEGORY =
  'No presets for this category yet. Create images, then use Save Style Preset on one you like.';

function PresetChecklist({
  presetsLoad,
  chosenPresetIds,
  onTogglePreset,
  disabled,
  noPresetsNote = NO_PRESETS_FOR_CATEGORY,
  presetLabel = (preset) => preset.preset_name,
}: Omit<OptionsPanelProps, 'count' | 'onCount'>) {
  const maxPresets = useCreateLimits().maxPresetsPerGeneration;
  switch (presetsLoad.state) {
    case 'idle':
      return <p className={styles.note}>Your saved presets for the product&apos;s category appear after analysis.</p>;
    case 'loading':
      return (
        <p className={styles.note}>
          <Spinner size="sm" label={null} /> Loading your presets...
        </p>
      );
    case 'failed':
      return <p className={styles.note}>Your style presets could not be loaded.</p>;
    case 'loaded':
      break;
  }
  if (presetsLoad.presets.length === 0) {
    return <p className={styles.note}>{noPresetsNote}</p>;
  }
  const limitReached = chosenPresetIds.length >= maxPresets;
  return (
    <>
      <ul className={styles.presets}>
        {presetsLoad.presets.map((preset) => {
          const checked = chosenPresetIds.includes(preset.id);
          return (
            <li key={preset.id}>
              <label className={styles.preset}>
                <input
                  type="checkbox"
                  checked={checked}
                  disabled={disabled || (!checked && limitReached)}
                  onChange={() => onTogglePreset(preset.id)}
                />
                <span>{presetLabel(preset)}</span>
              </label>
            </li>
          );
        })}
      </ul>
      <p className={styles.note}>
        {chosenPresetIds.length} of {maxPresets} chosen{limitReached ? ' (the most per creation)' : ''}.
      </p>
    </>
  );
}

/** The collapsible Options panel: Number of Images and the "Use style presets" checklist. */
export function OptionsPanel(props: OptionsPanelProps) {
  const { count, onCount, chosenPresetIds, disabled, countLabel = 'Number of Images' } = props;
  const [open, setOpen] = useState(true);
  const bodyId = useId();
  const presetsTitleId = useId();
  const presetsChosen = chosenPresetIds.length > 0;
  const limits = useCreateLimits();
  return (
    <section className={styles.panel}>
      <button
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen((value) => !value)}
      >
        <span>Options</span>
        <svg className={styles.chevron} data-open={open} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
          <path d="m5 8 5 5 5-5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
        </svg>
      </button>
      <div id={bodyId} className={styles.body} hidden={!open}>
        <Slider
          label={countLabel}
          min={MIN_IMAGES}
          max={limits.maxImagesPerGeneration}
          value={count}
          onChange={onCount}
          disabled={disabled || presetsChosen}
        />
        {presetsChosen && <p className={styles.note}>One image per chosen style preset.</p>}
        <fieldset className={styles.fieldset} aria-labelledby={presetsTitleId}>
          <legend id={presetsTitleId} className={styles.legend}>
            Use style presets
          </legend>
          <PresetChecklist {...props} />
        </fieldset>
      </div>
    </section>
  );
}
