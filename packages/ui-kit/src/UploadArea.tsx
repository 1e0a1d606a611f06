import clsx from 'clsx';
import { useId, useState, type ChangeEvent, type DragEvent, type ReactNode } from 'react';
import styles from './UploadArea.module.css';

export interface UploadAreaProps {
  /** The area's main line, which also labels its file input ("Upload a product photo"). */
  title: string;
  /** A second, smaller line under the title. */
  text?: string;
  onFiles: (files: File[]) => void;
  multiple?: boolean;
  disabled?: boolean;
  /** Passes on image files only (others are left out silently); otherwise the caller checks what it receives. */
  imagesOnly?: boolean;
  /** Shown inside the area above a compact browse control (e.g. the photo already chosen). */
  preview?: ReactNode;
  /** A badge on the area's corner (a first-use hint such as "Click to start!"). */
  hint?: string | null;
  /** Phones get Take Photo (the rear camera) and Choose from Gallery instead of the drop target's text. */
  phoneButtons?: boolean;
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

/** A visually hidden image file input; its label elsewhere is the visible control. */
function ImageInput(props: {
  id: string;
  multiple: boolean;
  disabled: boolean;
  capture?: 'environment';
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  return <input className={styles.input} type="file" accept="image/*" {...props} />;
}

/**
 * The one image upload area of the site (the create screen, the free tools): drop files on it or click to browse;
 * every input accepts images. A file input is cleared after each choice, so the same file can be chosen again.
 */
export function UploadArea({
  title,
  text,
  onFiles,
  multiple = false,
  disabled = false,
  imagesOnly = false,
  preview,
  hint,
  phoneButtons = false,
}: UploadAreaProps) {
  const browseId = useId();
  const cameraId = useId();
  const galleryId = useId();
  const [dragging, setDragging] = useState(false);

  const take = (list: FileList | null) => {
    const files = Array.from(list ?? []).filter((file) => !imagesOnly || file.type.startsWith('image/'));
    if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
  };
  const takeChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const { files } = event.currentTarget;
    take(files);
    event.currentTarget.value = '';
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) take(event.dataTransfer.files);
  };

  return (
    <div className={styles.root}>
      <div
        className={clsx(
          styles.zone,
          dragging && styles.dragging,
          preview && styles.hasPreview,
          disabled && styles.disabled,
        )}
        onDragOver={(event) => {
          // Without preventDefault the browser would open the dropped file instead.
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="upload-area"
      >
        {preview}
        <label htmlFor={browseId} className={clsx(styles.browse, preview && styles.browseCompact)}>
          {!preview && <UploadIcon />}
          <span className={styles.browseTitle}>{title}</span>
          {text && <span className={styles.browseText}>{text}</span>}
        </label>
        <ImageInput id={browseId} multiple={multiple} disabled={disabled} onChange={takeChosen} />
        {hint && (
          <span className={styles.zoneHint} role="note">
            {hint}
          </span>
        )}
      </div>
      {phoneButtons && (
        <div className={styles.phoneButtons}>
          <label
            htmlFor={cameraId}
            className={clsx(styles.phoneButton, styles.phonePrimary, disabled && styles.disabled)}
          >
            Take Photo
          </label>
          <ImageInput id={cameraId} multiple={false} capture="environment" disabled={disabled} onChange={takeChosen} />
          <label htmlFor={galleryId} className={clsx(styles.phoneButton, disabled && styles.disabled)}>
            Choose from Gallery
          </label>
          <ImageInput id={galleryId} multiple={multiple} disabled={disabled} onChange={takeChosen} />
        </div>
      )}
    </div>
  );
}
