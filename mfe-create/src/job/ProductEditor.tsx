import { useEffect, useState } from 'react';
import { usePlatformClient, type CategoryId, type PlatformClient } from '@productgen/platform-client';
import { Button, MaskBrush, Spinner, type ButtonVariant, type Mask } from '@productgen/ui-kit';
import { loadableSrc } from '../shared/images';
import { apiMessage, ErrorBox } from '../shared/messages';
import { useCategories } from '../shared/useCategories';
import { BRUSH_HINT } from '../single/CutoutStage';
import { base64FromBytes, bytesFromBase64, decodeMaskPng, encodeMaskPng } from '../single/mask-png';
import { ProductCheck } from '../single/ProductCheck';
import styles from './CheckScreen.module.css';

export const EDIT_FAILED_MESSAGE = 'Your change could not be saved. Please try again.';

/** What the seller changed here: the brush's mask (PNG, base64), the name, the category. */
export interface ProductChanges {
  mask?: string;
  object?: string;
  category?: CategoryId;
}

export interface ProductAction {
  label: string;
  variant: ButtonVariant;
  /** Blocked while the product has no name. */
  needsName?: boolean;
  run: (changes: ProductChanges) => Promise<void>;
}

export interface ProductEditorProps {
  generationUuid: string;
  filename: string;
  photoUrl: string;
  object: string | null;
  category: CategoryId | null;
  /** Shown above the pictures (why the machine is unsure). */
  notes?: readonly string[];
  actions: readonly ProductAction[];
}

/** The product's cut-out mask, null while loading, 'none' when it has none (nothing was found). */
function useProductCutout(client: PlatformClient, generationUuid: string): Mask | null | 'none' {
  const [mask, setMask] = useState<Mask | null | 'none'>(null);
  useEffect(() => {
    let active = true;
    client.cutout(generationUuid).then(
      (cutout) => active && setMask(decodeMaskPng(bytesFromBase64(cutout.mask))),
      () => active && setMask('none'),
    );
    return () => {
      active = false;
    };
  }, [client, generationUuid]);
  return mask;
}

/**
 * A batch product to correct: its photo, its cut-out on a checkerboard under ui-kit's Keep / Remove brush (the one a
 * single creation uses), its name and category (the single creation's fields), and the screen's actions, which get
 * only what was changed here.
 */
export function ProductEditor({
  generationUuid,
  filename,
  photoUrl,
  object,
  category,
  notes = [],
  actions,
}: ProductEditorProps) {
  const client = usePlatformClient();
  const categories = useCategories();
  const initial = useProductCutout(client, generationUuid);
  const [edits, setEdits] = useState({ object: object ?? '', category: category ?? ('other' as CategoryId) });
  const [brushed, setBrushed] = useState<Mask | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const photo = loadableSrc(client.assetUrl, photoUrl);

  function changes(): ProductChanges {
    const name = edits.object.trim();
    return {
      ...(brushed ? { mask: base64FromBytes(encodeMaskPng(brushed)) } : {}),
      ...(name !== '' && name !== (object ?? '') ? { object: name } : {}),
      ...(edits.category !== category ? { category: edits.category } : {}),
    };
  }

  async function run(action: ProductAction) {
    setBusy(action.label);
    setError(null);
    try {
      await action.run(changes());
    } catch (failure) {
      setError(apiMessage(failure) ?? EDIT_FAILED_MESSAGE);
      setBusy(null);
    }
  }

  return (
    <div className={styles.product} data-testid="product-editor">
      <p className={styles.filename}>{filename}</p>
      {notes.length > 0 && (
        <ul className={styles.reasons}>
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {error && <ErrorBox message={error} onDismiss={() => setError(null)} />}
      <div className={styles.pictures}>
        <img className={styles.photo} src={photo} alt={`${filename}, as uploaded`} />
        {initial === null && <Spinner size="sm" label="Loading the cut-out" />}
        {initial !== null && initial !== 'none' && (
          <div className={styles.brush}>
            <p className={styles.hint}>{BRUSH_HINT}</p>
            <MaskBrush
              photo={photo}
              initial={initial}
              onChange={(mask, edited) => setBrushed(edited ? mask : null)}
              disabled={busy !== null}
              label={`${filename}, cut out`}
            />
          </div>
        )}
      </div>
      <ProductCheck
        edits={edits}
        categories={categories}
        locked={busy !== null}
        onObject={(name) => setEdits((current) => ({ ...current, object: name }))}
        onCategory={(chosen) => setEdits((current) => ({ ...current, category: chosen }))}
      />
      <div className={styles.actions}>
        {actions.map((action) => (
          <Button
            key={action.label}
            variant={action.variant}
            loading={busy === action.label}
            disabled={busy !== null || (action.needsName === true && edits.object.trim() === '')}
            onClick={() => void run(action)}
          >
            {action.label}
          </Button>
        ))}
      </div>
    </div>
  );
}
