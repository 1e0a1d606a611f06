import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { usePlatformClient, type Generation } from '@productgen/platform-client';
import { ImageViewer, Modal, Spinner, type ViewerImage } from '@productgen/ui-kit';
import { FETCH_ERROR_TEXT } from './CreditsLog';
import styles from './DashboardPage.module.css';

/** The query naming the single generation whose details are open (`/dashboard?generation={uuid}`). */
export const GENERATION_PARAM = 'generation';
/** SPEC §7: image index -1 downloads the original. */
const ORIGINAL_INDEX = -1;

type DetailState = { status: 'loading' } | { status: 'failed' } | { status: 'loaded'; generation: Generation };

/**
 * See Details of a single generation: the original and every created image, each with its download link and a
 * button opening the full-size viewer (the one the job page uses: arrow keys, swipe, Download). Opened by the `generation` query so the details can be linked and Back closes them.
 */
export function GenerationDetails() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const generationUuid = params.get(GENERATION_PARAM);
  const close = () => navigate('/dashboard');
  return (
    <Modal open={generationUuid !== null} onClose={close} title="Generation details" size="lg">
      {generationUuid !== null && <DetailBody key={generationUuid} generationUuid={generationUuid} />}
    </Modal>
  );
}

function DetailBody({ generationUuid }: { generationUuid: string }) {
  const client = usePlatformClient();
  const [state, setState] = useState<DetailState>({ status: 'loading' });
  const [viewing, setViewing] = useState<number | null>(null);

  useEffect(() => {
    let current = true;
    client.generatedDetail(generationUuid).then(
      (generation) => current && setState({ status: 'loaded', generation }),
      () => current && setState({ status: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [client, generationUuid]);

  if (state.status === 'loading') return <Spinner label="Loading details..." />;
  if (state.status === 'failed') {
    return (
      <p className={styles.error} role="alert">
        {FETCH_ERROR_TEXT}
      </p>
    );
  }
  const { generation } = state;
  const created = generation.images.map((image, index) => ({
    key: image.id,
    label: `Created image ${index + 1}`,
    src: image.output_url,
    index,
    finishing: (image.metadata?.fixes_done ?? []).some((done) => !done),
  }));
  const original = generation.original_image_url
    ? [
        {
          key: 'original',
          label: 'Original',
          src: generation.original_image_url,
          index: ORIGINAL_INDEX,
          finishing: false,
        },
      ]
    : [];
  const tiles = [...original, ...created];
  const viewerImages: ViewerImage[] = tiles.map((tile) => ({
    key: tile.key,
    src: client.assetUrl(tile.src),
    alt: tile.label,
    downloadHref: client.downloadUrl('image', generationUuid, tile.index),
    finishing: tile.finishing,
  }));
  return (
    <>
      <ul className={styles.cards}>
        {viewerImages.map((image, position) => (
          <li key={image.key} className={styles.card}>
            <figure className={styles.figure}>
              <img src={image.src} alt={image.alt} className={styles.cardImage} />
              <figcaption>{image.alt}</figcaption>
            </figure>
            <p className={styles.tileLinks}>
              <button type="button" className={styles.linkButton} onClick={() => setViewing(position)}>
                View full size<span className={styles.visuallyHidden}>: {image.alt}</span>
              </button>
              <a href={image.downloadHref} download>
                Download<span className={styles.visuallyHidden}>: {image.alt}</span>
              </a>
            </p>
          </li>
        ))}
      </ul>
      <ImageViewer images={viewerImages} index={viewing} onIndex={setViewing} onClose={() => setViewing(null)} />
    </>
  );
}
