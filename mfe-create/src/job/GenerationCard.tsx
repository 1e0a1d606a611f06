import { usePlatformClient, type Generation } from '@productgen/platform-client';
import { Button, FixesOverlay, Spinner } from '@productgen/ui-kit';
import { fixesRunning, loadableSrc } from '../shared/images';
import { generationOutcome } from './jobStatus';
import styles from './GenerationCard.module.css';

export const REDO_LABEL = 'Fix and redo';

export interface GenerationCardProps {
  generation: Generation;
  /** Its place in the job, for products without a file name. */
  productIndex: number;
  /** A created image was chosen: open the viewer at it. */
  onOpen: (imageIndex: number) => void;
  /** Offered once the product is finished: correct it and have it made again. */
  onRedo?: () => void;
}

/** One product of a batch: its original photo and the images created from it (or why there are none yet). */
export function GenerationCard({ generation, productIndex, onOpen, onRedo }: GenerationCardProps) {
  const client = usePlatformClient();
  const product = generation.original_filename || `Product ${productIndex + 1}`;
  const outcome = generationOutcome(generation);
  return (
    <article className={styles.card} aria-label={product}>
      <figure className={styles.original}>
        <img
          className={styles.originalImage}
          src={loadableSrc(client.assetUrl, generation.original_image_url)}
          alt={`${product}, original`}
          loading="lazy"
        />
        <figcaption className={styles.caption} title={product}>
          <span className={styles.label}>Original</span>
          {product}
        </figcaption>
      </figure>
      <div className={styles.created}>
        {outcome.state === 'images' && (
          <ul className={styles.images}>
            {generation.images.map((image, index) => (
              <li key={image.id}>
                <button
                  type="button"
                  className={styles.thumb}
                  aria-label={`View ${product}, image ${index + 1}`}
                  onClick={() => onOpen(index)}
                >
                  <img
                    className={styles.thumbImage}
                    src={loadableSrc(client.assetUrl, image.output_url)}
                    alt=""
                    loading="lazy"
                    draggable={false}
                  />
                  {fixesRunning(image) && <FixesOverlay label={`Finishing ${product}, image ${index + 1}...`} />}
                </button>
              </li>
            ))}
          </ul>
        )}
        {outcome.state === 'failed' && (
          <div className={styles.failed} data-testid="generation-failed">
            <strong>Failed</strong>
            {outcome.error && <span>{outcome.error}</span>}
          </div>
        )}
        {onRedo && outcome.state !== 'processing' && (
          <Button variant="secondary" size="sm" className={styles.redo} onClick={onRedo}>
            {REDO_LABEL}
          </Button>
        )}
        {outcome.state === 'processing' && (
          <div className={styles.processing} data-testid="generation-processing">
            <Spinner size="sm" label={null} />
            Processing
          </div>
        )}
      </div>
    </article>
  );
}
