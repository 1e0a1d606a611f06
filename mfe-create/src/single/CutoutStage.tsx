import clsx from 'clsx';
import { useEffect, useState } from 'react';
import { usePlatformClient, type Cutout } from '@productgen/platform-client';
import { MaskBrush, type Mask } from '@productgen/ui-kit';
import surfaces from '../shared/surfaces.module.css';
import { bytesFromBase64, decodeMaskPng } from './mask-png';
import styles from './CutoutStage.module.css';

export const LOW_CONFIDENCE_MESSAGE =
  'We are not sure we found all of your product. Check the cut-out: paint Keep over anything missing and Remove over background that stayed.';
export const BRUSH_HINT =
  'Paint Keep over parts of your product that are missing, and Remove over background that should go.';

type CutoutLoad =
  | { state: 'loading' }
  | { state: 'loaded'; cutout: Cutout; initial: Mask }
  /** No cut-out to show (nothing was found, or it could not be loaded): Create works as it is. */
  | { state: 'unavailable' };

function useCutout(generationUuid: string): CutoutLoad {
  const client = usePlatformClient();
  const [load, setLoad] = useState<CutoutLoad>({ state: 'loading' });
  useEffect(() => {
    let active = true;
    setLoad({ state: 'loading' });
    client
      .cutout(generationUuid)
      .then((cutout) => {
        if (active) setLoad({ state: 'loaded', cutout, initial: decodeMaskPng(bytesFromBase64(cutout.mask)) });
      })
      .catch(() => active && setLoad({ state: 'unavailable' }));
    return () => {
      active = false;
    };
  }, [client, generationUuid]);
  return load;
}

export interface CutoutStageProps {
  /** The photo as chosen (the cut-out is shown from it). */
  photo: string;
  /** The analysed generation whose cut-out is shown. */
  generationUuid: string;
  productName: string;
  count: number;
  /** After each brush change: the mask, and whether it differs from the analysis's. */
  onMask: (mask: Mask, edited: boolean) => void;
}

/**
 * The large stage between analysis and Create: the product cut out on a checkerboard, and the Keep / Remove brush to
 * fix it (opened at once when the cut-out is doubtful).
 */
export function CutoutStage({ photo, generationUuid, productName, count, onMask }: CutoutStageProps) {
  const load = useCutout(generationUuid);
  const lowConfidence = load.state === 'loaded' && load.cutout.low_confidence;
  const [brushOpen, setBrushOpen] = useState<boolean | null>(null);
  const open = brushOpen ?? lowConfidence;
  return (
    <div className={clsx(surfaces.stage, styles.stage)} data-testid="cutout-stage">
      <p className={surfaces.stageTitle}>Ready when you are</p>
      <p className={surfaces.stageText}>
        Press Create for {count} styled {count === 1 ? 'photo' : 'photos'} of your {productName || 'product'}.
      </p>
      {load.state === 'loaded' && (
        <div className={styles.cutout}>
          {lowConfidence && (
            <p className={styles.warning} role="note">
              {LOW_CONFIDENCE_MESSAGE}
            </p>
          )}
          <div className={styles.bar}>
            <span className={styles.title}>Your product, cut out</span>
            <button type="button" className={styles.fixToggle} aria-expanded={open} onClick={() => setBrushOpen(!open)}>
              Fix the cut-out
            </button>
          </div>
          {open && <p className={styles.hint}>{BRUSH_HINT}</p>}
          {/* One brush for both states, so the seller's strokes and undo history stay when it is folded away. */}
          <MaskBrush
            photo={photo}
            initial={load.initial}
            onChange={onMask}
            readOnly={!open}
            label="Your product's cut-out"
          />
        </div>
      )}
    </div>
  );
}
