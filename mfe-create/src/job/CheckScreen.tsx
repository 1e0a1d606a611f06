import clsx from 'clsx';
import { useCallback, useEffect, useRef, useState } from 'react';
import { usePlatformClient, type BulkCheckProduct, type PlatformClient } from '@productgen/platform-client';
import { Spinner } from '@productgen/ui-kit';
import { ErrorBox } from '../shared/messages';
import { ProductEditor } from './ProductEditor';
import surfaces from '../shared/surfaces.module.css';
import styles from './CheckScreen.module.css';

export const CHECK_TITLE = 'Needs your check';
export const LOOKS_RIGHT = 'Looks right';
export const RENDER_ANYWAY = 'Render anyway';
export const REMOVE_PRODUCT = 'Remove from batch';
export const CHECK_FAILED_MESSAGE = 'The products to check could not be loaded. Please reload the page.';
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
  const decide = async (decision: Parameters<PlatformClient['decideBulkCheck']>[2]) => {
    await client.decideBulkCheck(jobUuid, product.index, decision);
    onDone();
  };
  return (
    <ProductEditor
      generationUuid={product.generation_uuid}
      filename={product.filename}
      photoUrl={product.original_image_url}
      object={product.object}
      category={product.category}
      notes={product.reasons.map((reason) => REASON_TEXTS[reason])}
      actions={[
        {
          label: LOOKS_RIGHT,
          variant: 'primary',
          needsName: true,
          // Anything changed here makes it a fix.
          run: (changes) =>
            decide(Object.keys(changes).length > 0 ? { action: 'fix', ...changes } : { action: 'looks_right' }),
        },
        { label: RENDER_ANYWAY, variant: 'secondary', run: () => decide({ action: 'render_anyway' }) },
        {
          label: REMOVE_PRODUCT,
          variant: 'ghost',
          run: async () => {
            await client.removeBulkProduct(jobUuid, product.index);
            onDone();
          },
        },
      ]}
    />
  );
}
