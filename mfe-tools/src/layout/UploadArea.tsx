import { useId, useState, type DragEvent } from 'react';
import styles from './ToolPage.module.css';

export interface UploadAreaProps {
  multiple?: boolean;
  onFiles: (files: File[]) => void;
  disabled?: boolean;
  label?: string;
}

/** Upload by file picker or drag and drop; only image/* files are passed on. */
export function UploadArea({ multiple = false, onFiles, disabled = false, label }: UploadAreaProps) {
  const inputId = useId();
  const [dragging, setDragging] = useState(false);
  const take = (list: FileList | null) => {
    const images = Array.from(list ?? []).filter((file) => file.type.startsWith('image/'));
    if (images.length > 0) onFiles(multiple ? images : images.slice(0, 1));
  };
  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) take(event.dataTransfer.files);
  };
  return (
    <label
      htmlFor={inputId}
      className={[styles.upload, dragging && styles.uploadActive, disabled && styles.uploadDisabled]
        .filter(Boolean)
        .join(' ')}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <span className={styles.uploadTitle}>
        {label ?? (multiple ? 'Choose images or drop them here' : 'Choose an image or drop it here')}
      </span>
      <span className={styles.uploadHint}>JPEG, PNG or WebP · stays on your device</span>
      <input
        id={inputId}
        className={styles.visuallyHidden}
        type="file"
        accept="image/*"
        multiple={multiple}
        disabled={disabled}
        onChange={(event) => {
          take(event.currentTarget.files);
          event.currentTarget.value = '';
        }}
      />
    </label>
  );
}
