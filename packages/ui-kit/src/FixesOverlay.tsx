import { Spinner } from './Spinner';
import styles from './FixesOverlay.module.css';

export interface FixesOverlayProps {
  /** What is being finished, announced to screen readers (and shown beside the spinner when large). */
  label: string;
  /** The large image's pill with visible text; the small one is a spinner only. */
  large?: boolean;
}

/**
 * Shown over an image whose fixes (upscale, sharpening, watermark) are still running; the parent positions it
 * (position: relative).
 */
export function FixesOverlay({ label, large = false }: FixesOverlayProps) {
  return (
    <span className={styles.overlay} data-testid="fixes-overlay">
      {large ? (
        <span className={styles.overlayPill} role="status">
          <Spinner size="sm" label={null} />
          {label}
        </span>
      ) : (
        <Spinner size="sm" label={label} />
      )}
    </span>
  );
}
