import clsx from 'clsx';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  usePlatformClient,
  type BulkCheckProduct,
  type CategoryId,
  type PlatformClient,
} from '@productgen/platform-client';
import { Button, MaskBrush, Spinner, type Mask } from '@productgen/ui-kit';
import { loadableSrc } from '../shared/images';
import { apiMessage, ErrorBox } from '../shared/messages';
import { useCategories } from '../shared/useCategories';
import { BRUSH_HINT } from '../single/CutoutStage';
import { base64FromBytes, bytesFromBase64, decodeMaskPng, encodeMaskPng } from '../single/mask-png';
import { ProductCheck } from '../single/ProductCheck';
import surfaces from '../shared/surfaces.module.css';
import styles from './CheckScreen.module.css';

export const CHECK_TITLE = 'Needs your check';
export const LOOKS_RIGHT = 'Looks right';
export const RENDER_ANYWAY = 'Render anyway';
export const REMOVE_PRODUCT = 'Remove from batch';
export const CHECK_FAILED_MESSAGE = 'Your check could not be saved. Please try again.';
export const REASON_TEXTS: Record<BulkCheckProduct['reasons'][number], string> = {
  cutout: 'We are not sure we found all of your product: check the cut-out.',
  category: 'We are not sure what this product is: check its name and category.',
};

/** "3 products wait for your check." */
export function countLeft(count: number): string {
  return count === 1 ? '1 product waits for your check.' : `${count} products wait for your check.`;
}

type ChecksLoad = { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; products: BulkCheckProduct[] };

/**
 * A batch's products the machine is unsure of, one at a time: the photo cut out on a checkerboard with the same
 * Keep / Remove brush as a single creation, its name and category; "Looks right" renders it (with the changes made
 * here), "Render anyway" renders it as it is, "Remove from batch" gives its credits back.
 */
export function CheckScreen({ jobUuid, onChecked }: { jobUuid: string; onChecked: () => void }) {
  const client = usePlatformClient();
  const [load, setLoad] = useState<ChecksLoad>({ state: 'loading' });
  const reload = useCallback(() => {
    client.bulkChecks(jobUuid).then(
      (answer) => setLoad({ state: 'loaded', products: answer.products }),
      () => setLoad({ state: 'failed' }),
    );
  }, [client, jobUuid]);
  useEffect(reload, [reload]);
  // Reached from the dashboard's card (/job/{id}#check): brought into view once it has loaded.
  const section = useRef<HTMLElement>(null);
  const loaded = load.state === 'loaded';
  useEffect(() => {
    if (loaded && window.location.hash === '#check') section.current?.scrollIntoView?.({ block: 'start' });
  }, [loaded]);

  if (load.state === 'loading') return <Spinner size="sm" label="Loading the products to check" />;
  if (load.state === 'failed') return <ErrorBox message={CHECK_FAILED_MESSAGE} />;
  const [current] = load.products;
  return (
    <section ref={section} className={clsx(surfaces.card, styles.check)} aria-labelledby="check-title" id="check">
      <h2 id="check-title" className={styles.title}>
        {CHECK_TITLE}
      </h2>
      <p className={styles.count} role="status" data-testid="check-count">
        {load.products.length === 0 ? 'Every product is checked.' : countLeft(load.products.length)}
      </p>
      {current && (
        <ProductToCheck
          // A fresh brush and fields for each product.
          key={current.generation_uuid}
          jobUuid={jobUuid}
          product={current}
          onDone={() => {
            reload();
            onChecked();
          }}
        />
      )}
    </section>
  );
}

type Decision = 'looks_right' | 'render_anyway' | 'remove';

function useProductCutout(client: PlatformClient, generationUuid: string): Mask | null | 'none' {
  const [mask, setMask] = useState<Mask | null | 'none'>(null);
  useEffect(() => {
    let active = true;
    client.cutout(generationUuid).then(
      (cutout) => active && setMask(decodeMaskPng(bytesFromBase64(cutout.mask))),
      // No cut-out (nothing was found): the product can still be confirmed, renamed or removed.
      () => active && setMask('none'),
    );
    return () => {
      active = false;
    };
  }, [client, generationUuid]);
  return mask;
}

function ProductToCheck({
  jobUuid,
  product,
  onDone,
}: {
  jobUuid: string;
  product: BulkCheckProduct;
  onDone: () => void;
}) {
  const client = usePlatformClient();
  const categories = useCategories();
  const initial = useProductCutout(client, product.generation_uuid);
  const [edits, setEdits] = useState({
    object: product.object ?? '',
    category: (product.category ?? 'other') as CategoryId,
  });
  const [brushed, setBrushed] = useState<Mask | null>(null);
  const [busy, setBusy] = useState<Decision | null>(null);
  const [error, setError] = useState<string | null>(null);
  const photo = loadableSrc(client.assetUrl, product.original_image_url);

  async function decide(decision: Decision) {
    setBusy(decision);
    setError(null);
    try {
      if (decision === 'remove') await client.removeBulkProduct(jobUuid, product.index);
      else if (decision === 'render_anyway') {
        await client.decideBulkCheck(jobUuid, product.index, { action: 'render_anyway' });
      } else {
        const object = edits.object.trim();
        const fix = {
          ...(brushed ? { mask: base64FromBytes(encodeMaskPng(brushed)) } : {}),
          ...(object !== (product.object ?? '') ? { object } : {}),
          ...(edits.category !== product.category ? { category: edits.category } : {}),
        };
        await client.decideBulkCheck(
          jobUuid,
          product.index,
          Object.keys(fix).length > 0 ? { action: 'fix', ...fix } : { action: 'looks_right' },
        );
      }
      onDone();
    } catch (failure) {
      setError(apiMessage(failure) ?? CHECK_FAILED_MESSAGE);
      setBusy(null);
    }
  }

  return (
    <div className={styles.product} data-testid="product-to-check">
      <p className={styles.filename}>{product.filename}</p>
      <ul className={styles.reasons}>
        {product.reasons.map((reason) => (
          <li key={reason}>{REASON_TEXTS[reason]}</li>
        ))}
      </ul>
      {error && <ErrorBox message={error} onDismiss={() => setError(null)} />}
      <div className={styles.pictures}>
        <img className={styles.photo} src={photo} alt={`${product.filename}, as uploaded`} />
        {initial === null && <Spinner size="sm" label="Loading the cut-out" />}
        {initial !== null && initial !== 'none' && (
          <div className={styles.brush}>
            <p className={styles.hint}>{BRUSH_HINT}</p>
            <MaskBrush
              photo={photo}
              initial={initial}
              onChange={(mask, edited) => setBrushed(edited ? mask : null)}
              disabled={busy !== null}
              label={`${product.filename}, cut out`}
            />
          </div>
        )}
      </div>
      <ProductCheck
        edits={edits}
        categories={categories}
        locked={busy !== null}
        onObject={(object) => setEdits((current) => ({ ...current, object }))}
        onCategory={(category) => setEdits((current) => ({ ...current, category }))}
      />
      <div className={styles.actions}>
        <Button
          variant="primary"
          loading={busy === 'looks_right'}
          disabled={busy !== null || edits.object.trim() === ''}
          onClick={() => void decide('looks_right')}
        >
          {LOOKS_RIGHT}
        </Button>
        <Button
          variant="secondary"
          loading={busy === 'render_anyway'}
          disabled={busy !== null}
          onClick={() => void decide('render_anyway')}
        >
          {RENDER_ANYWAY}
        </Button>
        <Button
          variant="ghost"
          loading={busy === 'remove'}
          disabled={busy !== null}
          onClick={() => void decide('remove')}
        >
          {REMOVE_PRODUCT}
        </Button>
      </div>
    </div>
  );
}
