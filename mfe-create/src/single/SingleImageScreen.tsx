import clsx from 'clsx';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { usePlatformClient, useSession } from '@productgen/platform-client';
import { Button, ProgressBar, type Mask } from '@productgen/ui-kit';
import { SaveStylePresetDialog } from '../preset/SaveStylePresetDialog';
import { ErrorBox, SiteUrlTip, WatermarkNotice, apiMessage } from '../shared/messages';
import { useCreateLimits } from '../shared/limits';
import { OptionsPanel, type PresetsLoad } from '../shared/OptionsPanel';
import { isImageFile, resizeImageFile } from '../shared/resize';
import { useCategories } from '../shared/useCategories';
import surfaces from '../shared/surfaces.module.css';
import { base64FromBytes, encodeMaskPng } from './mask-png';
import { CutoutStage } from './CutoutStage';
import { ProductCheck } from './ProductCheck';
import { POLL_INTERVAL_MS, progressText } from './progress';
import { ResultsPanel } from './ResultsPanel';
import {
  createButtonState,
  imageCount,
  initialSingleState,
  isKnownCategory,
  pendingCorrections,
  singleReducer,
  startRefusal,
} from './state';
import { UploadArea } from './UploadArea';
import styles from './SingleImageScreen.module.css';

export const OUT_OF_CREDITS_LABEL = 'Out of credits! Top up to keep the magic going.';
export const CLICK_TO_START = 'Click to start!';
export const NOT_AN_IMAGE_MESSAGE = 'Please choose an image file.';
export const UNREADABLE_IMAGE_MESSAGE = 'This photo could not be read. Please choose another one.';
export const ANALYSIS_FAILED_MESSAGE = 'We could not analyze this photo. Please try another one.';

function usePresets(categoryId: string | null, enabled: boolean, version: number): PresetsLoad {
  const client = usePlatformClient();
  const [load, setLoad] = useState<PresetsLoad>({ state: 'idle' });
  // A reload for the same category (after saving a preset) keeps the current list on screen meanwhile.
  const loadedCategory = useRef<string | null>(null);
  useEffect(() => {
    if (!categoryId || !enabled) {
      loadedCategory.current = null;
      setLoad({ state: 'idle' });
      return;
    }
    let active = true;
    if (loadedCategory.current !== categoryId) setLoad({ state: 'loading' });
    client
      .stylePresetsForCategory(categoryId)
      .then((answer) => {
        if (!active) return;
        loadedCategory.current = categoryId;
        setLoad({ state: 'loaded', presets: answer.presets ?? [] });
      })
      .catch(() => active && setLoad({ state: 'failed' }));
    return () => {
      active = false;
    };
  }, [client, categoryId, enabled, version]);
  return load;
}

/** Before analysis: what the screen is for. After it, the cut-out stage takes this place. */
function EmptyStage() {
  return (
    <div className={clsx(surfaces.stage, styles.empty)}>
      <p className={surfaces.stageTitle}>Your product photos will appear here</p>
      <ol className={styles.steps}>
        <li>
          <strong>Upload</strong> a photo of your product, taken with any phone.
        </li>
        <li>
          <strong>Check</strong> the product and category we detect.
        </li>
        <li>
          <strong>Create</strong> up to 5 professional variations and download them.
        </li>
      </ol>
    </div>
  );
}

export interface SingleImageScreenProps {
  /** Changing it clears the screen: photo, analysis, options, results, messages and any polling. */
  resetKey?: number | string;
}

/** The Single Image tab of the create screen. */
export function SingleImageScreen({ resetKey = 0 }: SingleImageScreenProps) {
  return <SingleImageFlow key={resetKey} />;
}

function SingleImageFlow() {
  const client = usePlatformClient();
  const navigate = useNavigate();
  const { user } = useSession();
  const [state, dispatch] = useReducer(singleReducer, initialSingleState);
  const categories = useCategories();
  const [presetsVersion, setPresetsVersion] = useState(0);
  const [presetIndex, setPresetIndex] = useState<number | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(true);
  const [shownGeneration, setShownGeneration] = useState<string | null>(null);
  const photoTokens = useRef(0);
  /** The seller's corrected mask, until it is saved with Create; null while the analysis's stands. */
  const editedMask = useRef<Mask | null>(null);

  const limits = useCreateLimits();
  const credits = user ? user.credits : null;
  const firstGeneration = user?.flags?.is_first_generation === true;
  // The seller's category (the analysis's until changed) picks the presets, and the looks on Create.
  const categoryId = state.edits?.category ?? null;
  const productName = state.edits?.object ?? '';
  const categoryKnown = isKnownCategory(categoryId ?? undefined, categories ? categories.map((c) => c.id) : null);
  const categoryName = categories?.find((category) => category.id === categoryId)?.name ?? categoryId ?? '';
  const presetsLoad = usePresets(categoryKnown ? categoryId : null, !firstGeneration, presetsVersion);
  const count = imageCount({
    firstGeneration,
    credits,
    countChoice: state.countChoice,
    presetCount: state.presetIds.length,
    limits,
  });
  const buttonState = createButtonState(state, { count, credits, categoryKnown });

  // Choices of presets that no longer exist (another category, a deleted preset) are dropped.
  useEffect(() => {
    if (presetsLoad.state === 'loaded') {
      dispatch({ type: 'presetsAvailable', ids: presetsLoad.presets.map((preset) => preset.id) });
    }
  }, [presetsLoad]);

  const choosePhoto = useCallback(
    async (file: File) => {
      if (!isImageFile(file)) {
        dispatch({ type: 'photoRejected', error: NOT_AN_IMAGE_MESSAGE });
        return;
      }
      let photo: string;
      try {
        photo = await resizeImageFile(file);
      } catch {
        dispatch({ type: 'photoRejected', error: UNREADABLE_IMAGE_MESSAGE });
        return;
      }
      const token = ++photoTokens.current;
      editedMask.current = null;
      dispatch({ type: 'photoChosen', photo, token });
      try {
        const analysis = await client.analyseImage(photo, file.name);
        dispatch({ type: 'analysed', token, analysis });
      } catch (error) {
        dispatch({ type: 'analysisFailed', token, error: apiMessage(error) ?? ANALYSIS_FAILED_MESSAGE });
      }
    },
    [client],
  );

  const create = async () => {
    if (buttonState === 'outOfCredits') {
      navigate('/pricing');
      return;
    }
    const refusal = startRefusal(state);
    if (refusal) {
      dispatch({ type: 'startRefused', error: refusal });
      return;
    }
    if (buttonState !== 'ready' || !state.analysis) return;
    dispatch({ type: 'startRequested', count, random: Math.random() });
    setSettingsOpen(false);
    try {
      await saveCorrections(state.analysis.generation_uuid);
      const started = await client.imageGenFromId({
        id: state.analysis.generation_uuid,
        numGenerates: count,
        ...(state.presetIds.length > 0 ? { presets: state.presetIds } : {}),
      });
      dispatch({ type: 'startAccepted', generationUuid: started.generation_uuid });
    } catch (error) {
      dispatch({ type: 'startFailed', error: apiMessage(error) });
    }
  };

  /** The seller's mask, name and category go with the photo before its first Create (they cannot change after). */
  async function saveCorrections(generationUuid: string): Promise<void> {
    if (state.createdFromPhoto) return;
    const mask = editedMask.current;
    if (mask) {
      await client.saveCutout(generationUuid, base64FromBytes(encodeMaskPng(mask)));
      if (editedMask.current === mask) editedMask.current = null;
    }
    const changes = pendingCorrections(state);
    if (changes)
      dispatch({ type: 'analysisCorrected', analysis: await client.correctAnalysis(generationUuid, changes) });
  }

  // Status polling: one request every 2 s while working; each answer (a new poll count) schedules the next.
  const { working, generationUuid, polls } = state;
  useEffect(() => {
    if (!working || !generationUuid) return;
    let active = true;
    const timer = setTimeout(() => {
      client.generationStatus(generationUuid).then(
        (status) => active && dispatch({ type: 'polled', status, random: Math.random() }),
        (error: unknown) => active && dispatch({ type: 'pollFailed', error: apiMessage(error) }),
      );
    }, POLL_INTERVAL_MS);
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [client, working, generationUuid, polls]);

  // A creation that has ended (done, failed or timed out) has changed the balance: the top bar refetches it.
  const wasWorking = useRef(false);
  useEffect(() => {
    if (wasWorking.current && !working && generationUuid) client.refreshUser();
    wasWorking.current = working;
  }, [client, working, generationUuid]);

  const hasImages = state.images.length > 0;
  const finalizing = state.finished && state.progress === 100 && hasImages && shownGeneration !== generationUuid;
  const showProgress = working || finalizing;
  const showSiteTip = state.finished && user?.flags?.showSiteUrlTooltip === true;
  const docked = working || hasImages;
  const selectedIndex = state.images.findIndex((image) => image.id === state.selectedId);
  const showHint = firstGeneration && !working && !hasImages;

  return (
    <div className={clsx(styles.screen, docked && styles.screenDocked)}>
      {state.error && <ErrorBox message={state.error} onDismiss={() => dispatch({ type: 'errorDismissed' })} />}
      <div className={styles.layout}>
        <section
          className={clsx(surfaces.card, styles.settings, docked && styles.docked, !settingsOpen && styles.collapsed)}
          aria-label="Generation Settings"
        >
          <button
            type="button"
            className={styles.settingsBar}
            aria-expanded={settingsOpen}
            onClick={() => setSettingsOpen((open) => !open)}
          >
            <span>Generation Settings</span>
            <span className={styles.settingsBarSummary}>
              {state.analysis ? `${productName} · ${count} ${count === 1 ? 'image' : 'images'}` : 'No photo yet'}
            </span>
            <svg className={styles.chevron} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
              <path d="m5 12 5-5 5 5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
            </svg>
          </button>
          <div className={styles.settingsBody}>
            <UploadArea
              photo={state.photo}
              analysing={state.analysing}
              disabled={working}
              hint={showHint && !state.photo ? CLICK_TO_START : null}
              onFile={(file) => void choosePhoto(file)}
            />
            {state.photo && !state.analysing && (
              <dl className={styles.detected}>
                <div>
                  <dt>Product</dt>
                  <dd data-testid="detected-product">{productName}</dd>
                </div>
                <div>
                  <dt>Category</dt>
                  <dd data-testid="detected-category">{state.analysis ? categoryName : ''}</dd>
                </div>
              </dl>
            )}
            {state.photo && state.analysis && state.edits && (
              <ProductCheck
                edits={state.edits}
                categories={categories}
                locked={state.createdFromPhoto || working}
                onObject={(object) => dispatch({ type: 'objectEdited', object })}
                onCategory={(category) => dispatch({ type: 'categoryEdited', category })}
              />
            )}
            {!firstGeneration && (
              <OptionsPanel
                count={count}
                onCount={(value) => dispatch({ type: 'countChosen', count: value, limits })}
                presetsLoad={presetsLoad}
                chosenPresetIds={state.presetIds}
                onTogglePreset={(id) => dispatch({ type: 'presetToggled', id, limits })}
                disabled={working}
              />
            )}
            <div className={styles.createRow}>
              {showHint && state.photo && buttonState === 'ready' && (
                <span className={styles.createHint} role="note">
                  {CLICK_TO_START}
                </span>
              )}
              <Button
                size="lg"
                fullWidth
                variant={buttonState === 'outOfCredits' ? 'secondary' : 'primary'}
                disabled={buttonState === 'disabled' || buttonState === 'working'}
                loading={buttonState === 'working'}
                onClick={() => void create()}
              >
                {buttonState === 'outOfCredits'
                  ? OUT_OF_CREDITS_LABEL
                  : buttonState === 'working'
                    ? 'Creating...'
                    : 'Create'}
              </Button>
              {credits !== null && buttonState !== 'outOfCredits' && (
                <p className={styles.cost}>
                  Uses {count} {count === 1 ? 'credit' : 'credits'} · You have {credits}
                </p>
              )}
            </div>
          </div>
        </section>

        <section className={styles.output} aria-label="Created images">
          {showProgress && (
            <div className={clsx(surfaces.card, surfaces.progressCard)}>
              <ProgressBar
                value={state.progress}
                label={<span data-testid="progress-text">{progressText(state.progress, state.phrase)}</span>}
              />
            </div>
          )}
          {((hasImages && state.hasWatermark) || showSiteTip) && (
            <div className={styles.notices}>
              {hasImages && state.hasWatermark && <WatermarkNotice />}
              {showSiteTip && <SiteUrlTip />}
            </div>
          )}
          {hasImages && generationUuid ? (
            <ResultsPanel
              images={state.images}
              selectedId={state.selectedId}
              onSelect={(id) => dispatch({ type: 'imageSelected', id })}
              expected={working ? state.requested : state.images.length}
              imageSrc={client.assetUrl}
              imageDownloadUrl={(index) => client.downloadUrl('image', generationUuid, index)}
              batchDownloadUrl={client.downloadUrl('batch', generationUuid)}
              onSavePreset={setPresetIndex}
              onImageShown={() => setShownGeneration(generationUuid)}
            />
          ) : working ? (
            <div className={clsx(surfaces.stage, styles.workingStage)}>
              <div className={styles.workingGlow} aria-hidden="true" />
              {state.photo && <img className={styles.workingPhoto} src={state.photo} alt="" />}
              <p className={styles.workingText}>
                Creating {state.requested} {state.requested === 1 ? 'variation' : 'variations'} of your{' '}
                {productName || 'product'}
              </p>
            </div>
          ) : (
            !(state.photo && state.analysis) && <EmptyStage />
          )}
          {/* Hidden, not gone, while a creation starts: if it is refused, the seller's strokes are still there. */}
          {!hasImages && state.photo && state.analysis && (
            <div hidden={working}>
              <CutoutStage
                key={state.analysis.generation_uuid}
                photo={state.photo}
                generationUuid={state.analysis.generation_uuid}
                productName={productName}
                count={count}
                onMask={(mask, edited) => (editedMask.current = edited ? mask : null)}
              />
            </div>
          )}
        </section>
      </div>
      {generationUuid && (
        <SaveStylePresetDialog
          open={presetIndex !== null}
          onClose={() => setPresetIndex(null)}
          generationUuid={generationUuid}
          imageIndex={presetIndex ?? Math.max(0, selectedIndex)}
          category={categoryName}
          onSaved={() => setPresetsVersion((version) => version + 1)}
        />
      )}
    </div>
  );
}
