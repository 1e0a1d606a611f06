import { useEffect, useRef } from 'react';
import { Button, LinkButton } from './Button';
import { FixesOverlay } from './FixesOverlay';
import { Modal } from './Modal';
import { swipeTarget, useSwipe, type SwipeDirection } from './swipe';
import styles from './ImageViewer.module.css';

export interface ViewerImage {
  key: string;
  src: string;
  /** What the image shows, e.g. "kettle.jpg, image 2". */
  alt: string;
  downloadHref: string;
  /** Post-processing is still running: a spinner covers the image. */
  finishing: boolean;
}

export interface ImageViewerProps {
  images: readonly ViewerImage[];
  /** The image shown; null closes the viewer. */
  index: number | null;
  onIndex: (index: number) => void;
  onClose: () => void;
}

/**
 * A full-size image viewer over the page: Previous and Next, the arrow keys and a 50 px swipe move between the
 * images (no wrap-around); Escape, the close button and the backdrop close it.
 */
export function ImageViewer({ images, index, onIndex, onClose }: ImageViewerProps) {
  const image = index === null ? undefined : images[index];
  const position = index ?? 0;
  const move = (direction: SwipeDirection) => {
    const target = swipeTarget(position, images.length, direction);
    if (target !== position) onIndex(target);
  };
  const swipe = useSwipe(move);
  const viewerRef = useRef<HTMLDivElement>(null);

  // The keys work wherever focus is inside the viewer (its buttons, the link, the dialog itself).
  useEffect(() => {
    if (!image) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'ArrowRight') move('next');
      if (event.key === 'ArrowLeft') move('previous');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  // Reaching the first or last image disables the button that was pressed, and the browser then drops focus to
  // the page; take it back to the dialog so Escape, Tab and the arrow keys keep working.
  useEffect(() => {
    const dialog = viewerRef.current?.closest<HTMLElement>('[role="dialog"]');
    const active = document.activeElement;
    const lost = !dialog?.contains(active) || (active instanceof HTMLButtonElement && active.disabled);
    if (dialog && lost) dialog.focus();
  }, [position]);

  return (
    <Modal open={Boolean(image)} onClose={onClose} title={image?.alt ?? ''} size="lg" className={styles.dialog}>
      {image && (
        <div className={styles.viewer} ref={viewerRef}>
          <div
            className={styles.stage}
            data-testid="viewer-stage"
            onTouchStart={swipe.onTouchStart}
            onTouchEnd={swipe.onTouchEnd}
          >
            <img key={image.key} className={styles.image} src={image.src} alt={image.alt} draggable={false} />
            {image.finishing && <FixesOverlay large label="Adding the finishing touches..." />}
          </div>
          <div className={styles.controls}>
            <Button variant="secondary" size="sm" disabled={position === 0} onClick={() => move('previous')}>
              Previous
            </Button>
            <span className={styles.counter} aria-live="polite">
              {position + 1} / {images.length}
            </span>
            <Button variant="secondary" size="sm" disabled={position >= images.length - 1} onClick={() => move('next')}>
              Next
            </Button>
          </div>
          <LinkButton href={image.downloadHref} download variant="primary" fullWidth>
            Download
          </LinkButton>
        </div>
      )}
    </Modal>
  );
}
