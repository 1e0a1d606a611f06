import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { usePlatformClient, type Generation } from '@productgen/platform-client';
import { Modal, Spinner } from '@productgen/ui-kit';
import { FETCH_ERROR_TEXT } from './CreditsLog';
import styles from './DashboardPage.module.css';

/** The query naming the single generation whose details are open (`/dashboard?generation={uuid}`). */
export const GENERATION_PARAM = 'generation';
/** SPEC §7: image index -1 downloads the original. */
const ORIGINAL_INDEX = -1;

type DetailState = { status: 'loading' } | { status: 'failed' } | { status: 'loaded'; generation: Generation };

/**
 * See Details of a single generation: the original and every created image, each with its download link and a
 * link to the full-size image. Opened by the `generation` query so the details can be linked and Back closes them.
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
  }));
  const original = generation.original_image_url
    ? [{ key: 'original', label: 'Original', src: generation.original_image_url, index: ORIGINAL_INDEX }]
    : [];
  const tiles = [...original, ...created];
  return (
    <ul className={styles.cards}>
      {tiles.map((tile) => (
        <li key={tile.key} className={styles.card}>
          <figure className={styles.figure}>
            <img src={client.assetUrl(tile.src)} alt={tile.label} className={styles.cardImage} />
            <figcaption>{tile.label}</figcaption>
          </figure>
          <p className={styles.tileLinks}>
            <a href={client.assetUrl(tile.src)} target="_blank" rel="noreferrer">
              View full size<span className={styles.visuallyHidden}>: {tile.label}</span>
            </a>
            <a href={client.downloadUrl('image', generationUuid, tile.index)} download>
              Download<span className={styles.visuallyHidden}>: {tile.label}</span>
            </a>
          </p>
        </li>
      ))}
    </ul>
  );
}
