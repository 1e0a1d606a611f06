import clsx from 'clsx';
import { useId, type KeyboardEvent } from 'react';
import type { GeneratedImage } from '@productgen/platform-client';
import { Button, FixesOverlay, LinkButton, swipeTarget, useSwipe } from '@productgen/ui-kit';
import { fixesRunning, loadableSrc } from '../shared/images';
import styles from './ResultsPanel.module.css';

export interface ResultsPanelProps {
  images: readonly GeneratedImage[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  /** Placeholders shown in the Variations list until this many images have arrived. */
  expected: number;
  /** Resolves an image address from the API (relative paths are on the API origin); throws for an unusable one. */
  imageSrc: (url: string) => string;
  imageDownloadUrl: (index: number) => string;
  batchDownloadUrl: string;
  onSavePreset: (index: number) => void;
  /** The selected image finished loading (or failed to): the creation is fully on screen. */
  onImageShown: () => void;
}

/** The large selected image with its actions, and the Variations list (side panel, or a strip on phones). */
export function ResultsPanel({
  images,
  selectedId,
  onSelect,
  expected,
  imageSrc,
  imageDownloadUrl,
  batchDownloadUrl,
  onSavePreset,
  onImageShown,
}: ResultsPanelProps) {
  const titleId = useId();
  const selectedIndex = Math.max(
    0,
    images.findIndex((image) => image.id === selectedId),
  );
  const selected = images[selectedIndex];
  const moveTo = (index: number) => {
    const target = images[index];
    if (target && index !== selectedIndex) onSelect(target.id);
  };
  const swipe = useSwipe((direction) => moveTo(swipeTarget(selectedIndex, images.length, direction)));
  if (!selected) return null;
  const total = images.length;
  const slotsStillRendering = Math.max(0, expected - total);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') moveTo(swipeTarget(selectedIndex, total, 'next'));
    if (event.key === 'ArrowLeft') moveTo(swipeTarget(selectedIndex, total, 'previous'));
  };

  return (
    <div className={styles.results}>
      <div className={styles.main}>
        <div
          className={styles.stage}
          data-testid="selected-image"
          tabIndex={0}
          aria-label={`Variation ${selectedIndex + 1} of ${total}. Swipe or use the arrow keys to see the others.`}
          onTouchStart={swipe.onTouchStart}
          onTouchEnd={swipe.onTouchEnd}
          onKeyDown={onKeyDown}
        >
          <img
            key={selected.id}
            className={styles.large}
            src={loadableSrc(imageSrc, selected.output_url)}
            alt={`Created product photo, variation ${selectedIndex + 1}`}
            onLoad={onImageShown}
            onError={onImageShown}
            draggable={false}
          />
          {fixesRunning(selected) && <FixesOverlay large label="Adding the finishing touches..." />}
          {total > 1 && (
            <span className={styles.counter} aria-hidden="true">
              {selectedIndex + 1} / {total}
            </span>
          )}
        </div>
        <div className={styles.actions}>
          <LinkButton href={imageDownloadUrl(selectedIndex)} download variant="primary">
            Download
          </LinkButton>
          <Button variant="secondary" onClick={() => onSavePreset(selectedIndex)}>
            Save Style Preset
          </Button>
        </div>
      </div>
      <aside className={styles.variations} aria-labelledby={titleId}>
        <div className={styles.variationsHeader}>
          <h2 id={titleId} className={styles.variationsTitle}>
            Variations
          </h2>
          <a className={styles.downloadAll} href={batchDownloadUrl} download>
            Download All
          </a>
        </div>
        <ul className={styles.list}>
          {images.map((image, index) => (
            <li key={image.id}>
              <button
                type="button"
                className={clsx(styles.thumb, index === selectedIndex && styles.thumbSelected)}
                aria-pressed={index === selectedIndex}
                aria-label={`Variation ${index + 1}`}
                onClick={() => onSelect(image.id)}
              >
                <img
                  src={loadableSrc(imageSrc, image.output_url)}
                  alt=""
                  className={styles.thumbImage}
                  draggable={false}
                />
                {fixesRunning(image) && <FixesOverlay label={`Finishing variation ${index + 1}...`} />}
              </button>
            </li>
          ))}
          {Array.from({ length: slotsStillRendering }, (_, index) => (
            <li key={`pending-${index}`}>
              <span className={clsx(styles.thumb, styles.placeholder)} data-testid="variation-placeholder" />
            </li>
          ))}
        </ul>
      </aside>
    </div>
  );
}
