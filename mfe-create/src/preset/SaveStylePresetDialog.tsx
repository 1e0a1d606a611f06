import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { usePlatformClient } from '@productgen/platform-client';
import { Button, Modal, TextField } from '@productgen/ui-kit';
import styles from './SaveStylePresetDialog.module.css';

/** SPEC §5, §9: preset names are at most 255 characters; the dialog closes 1 s after "Done!". */
export const PRESET_NAME_MAX_LENGTH = 255;
export const CLOSE_AFTER_DONE_MS = 1000;
export const UNEXPECTED_ERROR = 'An unexpected error occurred.';

export interface SaveStylePresetDialogProps {
  open: boolean;
  onClose: () => void;
  generationUuid: string;
  imageIndex: number;
  /** The category's display name: shown, not sent (the server knows the generation's category). */
  category: string;
  /** Called once the preset is stored, e.g. to reload the preset checklist. */
  onSaved?: () => void;
}

function failureText(error: unknown): string {
  if (error && typeof error === 'object' && 'error' in error && typeof error.error === 'string' && error.error) {
    return error.error;
  }
  return UNEXPECTED_ERROR;
}

type Phase = 'idle' | 'saving' | 'done';

/** The form lives only while the dialog is open, so every opening starts with a fresh name, error and phase. */
function PresetForm({
  onClose,
  generationUuid,
  imageIndex,
  category,
  onSaved,
}: Omit<SaveStylePresetDialogProps, 'open'>) {
  const client = usePlatformClient();
  const formId = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const busy = phase !== 'idle';
  const trimmed = name.trim();

  // The parent may re-render (and pass a new onClose) during the last second; that must not restart the timer.
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);
  useEffect(() => {
    if (phase !== 'done') return;
    const timer = setTimeout(() => onCloseRef.current(), CLOSE_AFTER_DONE_MS);
    return () => clearTimeout(timer);
  }, [phase]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || busy) return;
    setPhase('saving');
    setError(null);
    try {
      await client.saveStylePreset({
        generation_uuid: generationUuid,
        image_index: imageIndex,
        preset_name: trimmed.slice(0, PRESET_NAME_MAX_LENGTH),
      });
      setPhase('done');
      onSaved?.();
    } catch (caught) {
      setError(failureText(caught));
      setPhase('idle');
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      dismissible={!busy}
      title="Save Style Preset"
      size="sm"
      footer={
        <Button type="submit" form={formId} disabled={!trimmed || busy} loading={phase === 'saving'}>
          {phase === 'saving' ? 'Saving...' : phase === 'done' ? 'Done!' : 'Save'}
        </Button>
      }
    >
      <form id={formId} className={styles.form} onSubmit={submit} noValidate>
        <p className={styles.intro}>Save the look of this image and reuse it on other products of the same category.</p>
        <div className={styles.category}>
          <span className={styles.categoryLabel}>Category</span>
          <span className={styles.categoryValue} data-testid="preset-category">
            {category}
          </span>
        </div>
        <TextField
          label="Preset Name"
          placeholder="Enter a name..."
          value={name}
          maxLength={PRESET_NAME_MAX_LENGTH}
          disabled={busy}
          required
          autoComplete="off"
          // A paste can bypass maxLength in some browsers; the value never grows past the limit.
          onChange={(event) => setName(event.target.value.slice(0, PRESET_NAME_MAX_LENGTH))}
          error={error ?? undefined}
        />
      </form>
    </Modal>
  );
}

export function SaveStylePresetDialog({ open, ...props }: SaveStylePresetDialogProps) {
  return open ? <PresetForm {...props} /> : null;
}
