import { useEffect, useId, useState } from 'react';
import { usePlatformClient, type Category, type Cutout } from '@productgen/platform-client';
import { MaskBrush, SelectField, TextField, type Mask } from '@productgen/ui-kit';
import { bytesFromBase64, decodeMaskPng } from './mask-png';
import { PRODUCT_NAME_MAX_LENGTH, type ProductEdits } from './state';
import styles from './ProductCheck.module.css';

export const LOW_CONFIDENCE_MESSAGE =
  'We are not sure we found all of your product. Check the cut-out: paint Keep over anything missing and Remove over background that stayed.';
export const BRUSH_HINT =
  'Paint Keep over parts of your product that are missing, and Remove over background that should go.';
export const LOCKED_NOTE = 'Saved with your images. Choose a new photo to change the cut-out, name or category.';
export const NAME_REQUIRED_MESSAGE = 'Please name your product.';

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

export interface ProductCheckProps {
  /** The photo as chosen (what the cut-out is shown from). */
  photo: string;
  /** The analysed generation whose cut-out is shown. */
  generationUuid: string;
  edits: ProductEdits;
  categories: readonly Category[] | null;
  /** A creation from this photo saved these: shown, no longer editable. */
  locked: boolean;
  onObject: (object: string) => void;
  onCategory: (category: string) => void;
  /** After each brush change: the mask, and whether it differs from the analysis's. */
  onMask: (mask: Mask, edited: boolean) => void;
}

/** After analysis: the product's name and category, and its cut-out with the Keep / Remove brush. */
export function ProductCheck({
  photo,
  generationUuid,
  edits,
  categories,
  locked,
  onObject,
  onCategory,
  onMask,
}: ProductCheckProps) {
  const load = useCutout(generationUuid);
  const lowConfidence = load.state === 'loaded' && load.cutout.low_confidence;
  const [brushOpen, setBrushOpen] = useState<boolean | null>(null);
  const brushId = useId();
  // A doubtful cut-out opens the brush until the seller closes it.
  const open = brushOpen ?? lowConfidence;
  const options = (categories ?? []).map((category) => ({ value: category.id, label: category.name }));
  if (!options.some((option) => option.value === edits.category)) {
    options.push({ value: edits.category, label: edits.category });
  }

  return (
    <div className={styles.check} data-testid="product-check">
      <TextField
        label="Product name"
        value={edits.object}
        maxLength={PRODUCT_NAME_MAX_LENGTH}
        disabled={locked}
        error={edits.object.trim() === '' ? NAME_REQUIRED_MESSAGE : undefined}
        onChange={(event) => onObject(event.target.value)}
      />
      <SelectField label="Category" options={options} value={edits.category} disabled={locked} onChange={onCategory} />
      {load.state === 'loaded' && (
        <>
          {lowConfidence && !locked && (
            <p className={styles.warning} role="note">
              {LOW_CONFIDENCE_MESSAGE}
            </p>
          )}
          <button
            type="button"
            className={styles.fixToggle}
            aria-expanded={open}
            aria-controls={brushId}
            onClick={() => setBrushOpen(!open)}
          >
            {locked ? 'See the cut-out' : 'Fix the cut-out'}
          </button>
          <div id={brushId} hidden={!open}>
            {!locked && <p className={styles.hint}>{BRUSH_HINT}</p>}
            {/* Kept mounted while folded away, so the seller's strokes and undo history stay. */}
            <MaskBrush
              photo={photo}
              initial={load.initial}
              onChange={onMask}
              disabled={locked}
              label="Your product's cut-out"
            />
          </div>
        </>
      )}
      {locked && <p className={styles.note}>{LOCKED_NOTE}</p>}
    </div>
  );
}
