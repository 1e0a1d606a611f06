import clsx from 'clsx';
import { useId, type ChangeEvent } from 'react';
import { Spinner } from '@productgen/ui-kit';
import { useFileDrop } from '../shared/useFileDrop';
import styles from './UploadArea.module.css';

export interface UploadAreaProps {
  photo: string | null;
  analysing: boolean;
  disabled: boolean;
  /** Shows the first-generation "Click to start!" hint on the area. */
  hint?: string | null;
  onFile: (file: File) => void;
}

export function UploadIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M12 16V4m0 0-4 4m4-4 4 4M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * The photo drop/upload area. Desktop: drop or click to browse. Phones (narrow screens, by CSS): Take Photo
 * opens the rear camera, Choose from Gallery the photo library. Every input accepts images only.
 */
export function UploadArea({ photo, analysing, disabled, hint, onFile }: UploadAreaProps) {
  const browseId = useId();
  const cameraId = useId();
  const galleryId = useId();
  const { dragging, handlers } = useFileDrop(disabled, ([file]) => file && onFile(file));

  const takeFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    // Clearing lets the same file be chosen again after a reset.
    event.currentTarget.value = '';
    if (file) onFile(file);
  };

  return (
    <div className={styles.root}>
      <div
        className={clsx(
          styles.zone,
          dragging && styles.dragging,
          photo && styles.hasPhoto,
          disabled && styles.disabled,
        )}
        {...handlers}
        data-testid="upload-area"
      >
        {photo && (
          <figure className={styles.preview}>
            <img src={photo} alt="Your product photo" className={styles.previewImage} />
            {analysing && (
              <figcaption className={styles.analysing} role="status">
                <Spinner size="sm" label={null} />
                Analyzing image...
              </figcaption>
            )}
          </figure>
        )}
        <label htmlFor={browseId} className={clsx(styles.browse, photo && styles.browseCompact)}>
          {!photo && <UploadIcon />}
          <span className={styles.browseTitle}>{photo ? 'Replace photo' : 'Upload a product photo'}</span>
          {!photo && <span className={styles.browseText}>Drag and drop an image here, or click to browse</span>}
        </label>
        <input
          id={browseId}
          className={styles.input}
          type="file"
          accept="image/*"
          disabled={disabled}
          onChange={takeFile}
        />
        {hint && (
          <span className={styles.hint} role="note">
            {hint}
          </span>
        )}
      </div>
      <div className={styles.phoneButtons}>
        <label
          htmlFor={cameraId}
          className={clsx(styles.phoneButton, styles.phonePrimary, disabled && styles.disabled)}
        >
          Take Photo
        </label>
        <input
          id={cameraId}
          className={styles.input}
          type="file"
          accept="image/*"
          capture="environment"
          disabled={disabled}
          onChange={takeFile}
        />
        <label htmlFor={galleryId} className={clsx(styles.phoneButton, disabled && styles.disabled)}>
          Choose from Gallery
        </label>
        <input
          id={galleryId}
          className={styles.input}
          type="file"
          accept="image/*"
          disabled={disabled}
          onChange={takeFile}
        />
      </div>
    </div>
  );
}
