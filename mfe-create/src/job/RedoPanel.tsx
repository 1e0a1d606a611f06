import type { BulkJobProduct, Generation } from '@productgen/platform-client';
import { usePlatformClient } from '@productgen/platform-client';
import { ProductEditor } from './ProductEditor';

export const CANCEL_REDO = 'Cancel';

/** "Redo (free)" or "Redo (uses 2 credits)": the price is said before the seller asks. */
export function redoLabel(free: boolean, credits: number): string {
  if (free) return 'Redo (free)';
  return `Redo (uses ${credits === 1 ? '1 credit' : `${credits} credits`})`;
}

/**
 * A finished batch product corrected (cut-out, name, category) and made again; its new images replace the old ones
 * in the job and Download All.
 */
export function RedoPanel({
  jobUuid,
  product,
  generation,
  onDone,
  onCancel,
}: {
  jobUuid: string;
  product: BulkJobProduct;
  generation: Generation;
  onDone: () => void;
  onCancel: () => void;
}) {
  const client = usePlatformClient();
  return (
    <ProductEditor
      generationUuid={generation.generation_uuid}
      filename={product.filename}
      photoUrl={generation.original_image_url}
      object={product.object}
      category={generation.metadata.category}
      actions={[
        {
          label: redoLabel(product.redo_free, product.redo_credits),
          variant: 'primary',
          run: async (changes) => {
            await client.redoBulkProduct(jobUuid, product.index, changes);
            onDone();
          },
        },
        { label: CANCEL_REDO, variant: 'ghost', run: async () => onCancel() },
      ]}
    />
  );
}
