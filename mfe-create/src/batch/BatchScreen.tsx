import clsx from 'clsx';
import { useEffect, useReducer, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { usePlatformClient, useSession, type StylePreset } from '@productgen/platform-client';
import { Button, ProgressBar, buttonClassName } from '@productgen/ui-kit';
import { defaultImageCount } from '../shared/choices';
import { ErrorBox, apiMessage } from '../shared/messages';
import { useCreateLimits } from '../shared/limits';
import { OptionsPanel, type PresetsLoad } from '../shared/OptionsPanel';
import { useCategories } from '../shared/useCategories';
import { BatchDropZone } from './BatchDropZone';
import { createBatch } from './createBatch';
import { INVALID_ZIP_MESSAGE, NO_FILES_MESSAGE, droppedKind, tooManyImagesMessage } from './files';
import { STAGE_TEXT, batchButtonState, batchReducer, initialBatchState, type BatchItem } from './state';
import { BatchInputError, readZipImages } from './zip';
import surfaces from '../shared/surfaces.module.css';
import styles from './BatchScreen.module.css';

export const BATCH_DESCRIPTION =
  'Batch Create turns up to 200 product photos, or one zip file of them, into styled images in a single job ' +
  'that you follow on its job page and download all at once.';
export const UPLOAD_FAILED_MESSAGE = 'An error occurred during bulk upload.';
export const NOT_ENOUGH_CREDITS_LABEL = 'Not enough credits';
export const CHECK_UNCERTAIN_LABEL = 'Check uncertain products before rendering';
export const CHECK_UNCERTAIN_NOTE =
  'Products whose cut-out or category we are unsure of wait for you ("Needs your check"); their credits stay reserved.';

/** Every saved style preset, whatever its category: in a batch each applies to the products of its category. */
function useAllPresets(): PresetsLoad {
  const client = usePlatformClient();
  const [load, setLoad] = useState<PresetsLoad>({ state: 'loading' });
  useEffect(() => {
    let active = true;
    client
      .stylePresets()
      .then((answer) => active && setLoad({ state: 'loaded', presets: answer.presets ?? [] }))
      .catch(() => active && setLoad({ state: 'failed' }));
    return () => {
      active = false;
    };
  }, [client]);
  return load;
}

/** The files a drop or a browse adds: images as they are, zips read into their images. */
async function imagesOf(files: File[]): Promise<File[]> {
  if (files.some((file) => droppedKind(file) === 'invalid')) throw new BatchInputError(INVALID_ZIP_MESSAGE);
  const images: File[] = [];
  for (const file of files) {
    if (droppedKind(file) === 'zip') images.push(...(await readZipImages(file)));
    else images.push(file);
  }
  return images;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export interface BatchScreenProps {
  /** Changing it clears the screen: images, options and messages. */
  resetKey?: number | string;
}

/** The Batch Create tab of the create screen. */
export function BatchScreen({ resetKey = 0 }: BatchScreenProps) {
  return <BatchFlow key={resetKey} />;
}

function BatchFlow() {
  const client = usePlatformClient();
  const navigate = useNavigate();
  const { user } = useSession();
  const [state, dispatch] = useReducer(batchReducer, initialBatchState);
  const categories = useCategories();
  const presetsLoad = useAllPresets();
  const [checkUncertain, setCheckUncertain] = useState(true);
  const nextId = useRef(0);

  const limits = useCreateLimits();
  const credits = user ? user.credits : null;
  const count =
    state.presetIds.length > 0 ? state.presetIds.length : (state.countChoice ?? defaultImageCount(credits, limits));
  const imageTotal = state.items.length;
  const needed = imageTotal * count;
  const buttonState = batchButtonState(state, { count, credits });

  // Choices of presets that no longer exist are dropped.
  useEffect(() => {
    if (presetsLoad.state === 'loaded') {
      dispatch({ type: 'presetsAvailable', ids: presetsLoad.presets.map((preset) => preset.id) });
    }
  }, [presetsLoad]);

  // Preview URLs live as long as their item: revoked on removal and when the screen goes.
  const items = useRef<BatchItem[]>([]);
  useEffect(() => {
    for (const gone of items.current.filter((item) => !state.items.includes(item))) {
      URL.revokeObjectURL(gone.previewUrl);
    }
    items.current = state.items;
  }, [state.items]);
  useEffect(() => () => items.current.forEach((item) => URL.revokeObjectURL(item.previewUrl)), []);

  const addFiles = async (files: File[]) => {
    let images: File[];
    try {
      images = await imagesOf(files);
    } catch (error) {
      dispatch({ type: 'refused', error: error instanceof BatchInputError ? error.message : INVALID_ZIP_MESSAGE });
      return;
    }
    if (items.current.length + images.length > limits.maxBatchImages) {
      dispatch({
        type: 'refused',
        error: tooManyImagesMessage(limits.maxBatchImages, items.current.length, images.length),
      });
      return;
    }
    dispatch({
      type: 'added',
      files: images.map((file) => ({
        id: `image-${++nextId.current}`,
        name: file.name,
        file,
        previewUrl: URL.createObjectURL(file),
      })),
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.items.length === 0) {
      dispatch({ type: 'refused', error: NO_FILES_MESSAGE });
      return;
    }
    if (buttonState !== 'ready') return;
    try {
      const bulkJobUuid = await createBatch(
        client,
        { items: state.items, numGenerates: count, presets: state.presetIds, checkUncertain },
        (stage, progress) => dispatch({ type: 'progressed', stage, progress }),
      );
      // The credits were reserved: the top bar refetches the balance.
      client.refreshUser();
      navigate(`/job/${encodeURIComponent(bulkJobUuid)}`);
    } catch (error) {
      const message = error instanceof BatchInputError ? error.message : apiMessage(error);
      dispatch({ type: 'failed', error: message ?? UPLOAD_FAILED_MESSAGE });
    }
  };

  const categoryName = (id: string | undefined) => categories?.find((category) => category.id === id)?.name ?? id;
  const presetLabel = (preset: StylePreset) => (
    <>
      {preset.preset_name}
      {preset.category_name && <span className={styles.presetCategory}> · {categoryName(preset.category_name)}</span>}
    </>
  );

  return (
    <form className={styles.screen} onSubmit={(event) => void submit(event)} aria-label="Batch Create" noValidate>
      <p className={styles.lead}>{BATCH_DESCRIPTION}</p>
      {state.error && <ErrorBox message={state.error} onDismiss={() => dispatch({ type: 'errorDismissed' })} />}
      <div className={styles.layout}>
        <section className={clsx(surfaces.card, styles.settings)} aria-label="Batch settings">
          <BatchDropZone disabled={state.working} onFiles={(files) => void addFiles(files)} />
          <OptionsPanel
            count={count}
            onCount={(value) => dispatch({ type: 'countChosen', count: value, limits })}
            countLabel="Images per product"
            presetsLoad={presetsLoad}
            chosenPresetIds={state.presetIds}
            onTogglePreset={(id) => dispatch({ type: 'presetToggled', id, limits })}
            disabled={state.working}
            noPresetsNote="No style presets yet. Create images on the Single Image tab, then use Save Style Preset on one you like."
            presetLabel={presetLabel}
          />
          {state.presetIds.length > 0 && (
            <p className={styles.note}>
              Presets apply only to products of their category; other products are skipped and use no credits.
            </p>
          )}
          <label className={styles.checkOption}>
            <input
              type="checkbox"
              checked={checkUncertain}
              disabled={state.working}
              onChange={(event) => setCheckUncertain(event.target.checked)}
            />
            <span>
              {CHECK_UNCERTAIN_LABEL}
              <span className={styles.note}> {CHECK_UNCERTAIN_NOTE}</span>
            </span>
          </label>
          <div className={styles.createRow}>
            <Button
              type="submit"
              size="lg"
              fullWidth
              disabled={buttonState !== 'ready'}
              loading={buttonState === 'working'}
            >
              {buttonState === 'notEnoughCredits' ? NOT_ENOUGH_CREDITS_LABEL : 'Create batch'}
            </Button>
            {imageTotal > 0 && credits !== null && (
              <p className={styles.cost} data-testid="batch-cost">
                {buttonState === 'notEnoughCredits'
                  ? `You need ${plural(needed, 'credit')} (${plural(imageTotal, 'image')} × ${count} per product) and have ${credits}.`
                  : `Uses ${plural(needed, 'credit')} (${plural(imageTotal, 'image')} × ${count} per product) · You have ${credits}`}
              </p>
            )}
            {buttonState === 'notEnoughCredits' && (
              <Link to="/pricing" className={buttonClassName({ variant: 'secondary', fullWidth: true })}>
                Get more credits
              </Link>
            )}
          </div>
        </section>

        <section className={styles.output} aria-label="Chosen images">
          {state.working && state.stage && (
            <div className={clsx(surfaces.card, surfaces.progressCard)}>
              <ProgressBar
                value={state.progress}
                label={<span data-testid="batch-progress-text">{STAGE_TEXT[state.stage]}</span>}
                showPercentage
              />
            </div>
          )}
          {imageTotal > 0 ? (
            <>
              <h2 className={styles.gridTitle}>
                {plural(imageTotal, 'image')}{' '}
                <span className={styles.gridLimit}>of at most {limits.maxBatchImages}</span>
              </h2>
              <ul className={styles.grid}>
                {state.items.map((item) => (
                  <li key={item.id} className={styles.tile}>
                    <img className={styles.tileImage} src={item.previewUrl} alt={item.name} loading="lazy" />
                    <span className={styles.tileName} title={item.name}>
                      {item.name}
                    </span>
                    <button
                      type="button"
                      className={styles.remove}
                      aria-label={`Remove ${item.name}`}
                      disabled={state.working}
                      onClick={() => dispatch({ type: 'removed', id: item.id })}
                    >
                      ×
                    </button>
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <div className={clsx(surfaces.stage, styles.empty)}>
              <p className={surfaces.stageTitle}>Your batch is empty</p>
              <p className={surfaces.stageText}>
                Add product photos or a zip file. Each product gets its own styled images, all in one job.
              </p>
            </div>
          )}
        </section>
      </div>
    </form>
  );
}
