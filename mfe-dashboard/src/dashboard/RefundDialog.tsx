import { useEffect, useState, type FormEvent } from 'react';
import { usePlatformClient, type GeneratedImage } from '@productgen/platform-client';
import { Button, Modal, Spinner, TextArea } from '@productgen/ui-kit';
import styles from './RefundDialog.module.css';

/** SPEC §9: the success overlay shows for 2 s before the dialog closes. */
export const REFUND_SUCCESS_MS = 2_000;
export const REFUND_SUCCESS_TEXT = 'Refund requested';

export interface RefundDialogProps {
  /** The generation whose images may be refunded; null keeps the dialog closed. */
  generationUuid: string | null;
  onClose: () => void;
  /** Called after the server granted a refund (the balance changed). */
  onRefunded?: () => void;
}

/**
 * SPEC §4/§5: pick one image, give a reason, submit; a success overlay for 2 s, then the dialog closes and resets.
 * Failures are swallowed (SPEC §8): the form simply becomes usable again.
 */
export function RefundDialog({ generationUuid, onClose, onRefunded }: RefundDialogProps) {
  return (
    <Modal open={generationUuid !== null} onClose={onClose} title="Request Refund">
      {generationUuid !== null && (
        // Keyed by the generation so a new opening starts from an empty form.
        <RefundForm key={generationUuid} generationUuid={generationUuid} onClose={onClose} onRefunded={onRefunded} />
      )}
    </Modal>
  );
}

function RefundForm({
  generationUuid,
  onClose,
  onRefunded,
}: { generationUuid: string } & Omit<RefundDialogProps, 'generationUuid'>) {
  const client = usePlatformClient();
  const [images, setImages] = useState<GeneratedImage[] | null>(null);
  const [imageIndex, setImageIndex] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [succeeded, setSucceeded] = useState(false);

  useEffect(() => {
    let current = true;
    client.generatedDetail(generationUuid).then(
      (generation) => current && setImages(generation.images ?? []),
      () => current && setImages([]),
    );
    return () => {
      current = false;
    };
  }, [client, generationUuid]);

  useEffect(() => {
    if (!succeeded) return undefined;
    const timer = setTimeout(onClose, REFUND_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [succeeded, onClose]);

  const canSubmit = imageIndex !== null && reason.trim() !== '' && !submitting && !succeeded;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    setSubmitting(true);
    try {
      await client.refund({ generationUuid, imageIndex, refundReason: reason.trim() });
      setSucceeded(true);
      client.refreshUser();
      onRefunded?.();
    } catch {
      // SPEC §8: refund failures are swallowed silently.
    } finally {
      setSubmitting(false);
    }
  };

  if (images === null) return <Spinner label="Loading images..." />;
  return (
    <form className={styles.form} onSubmit={submit}>
      <fieldset className={styles.images}>
        <legend>Choose the image to refund</legend>
        {images.map((image, index) => (
          <label key={image.id} className={styles.choice}>
            <input
              type="radio"
              name="refund-image"
              value={index}
              checked={imageIndex === index}
              onChange={() => setImageIndex(index)}
            />
            <img src={client.assetUrl(image.output_url)} alt={`Created image ${index + 1}`} className={styles.thumb} />
          </label>
        ))}
      </fieldset>
      <TextArea label="Reason" required value={reason} onChange={(event) => setReason(event.target.value)} rows={3} />
      <Button type="submit" disabled={!canSubmit}>
        Submit
      </Button>
      {succeeded && (
        <div className={styles.overlay} role="status">
          {REFUND_SUCCESS_TEXT}
        </div>
      )}
    </form>
  );
}
