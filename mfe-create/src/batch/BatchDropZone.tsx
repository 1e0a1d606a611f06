import clsx from 'clsx';
import { useId, type ChangeEvent } from 'react';
import { useFileDrop } from '../shared/useFileDrop';
import { UploadIcon } from '../single/UploadArea';
// The drop target looks and behaves like the single tab's: same styles, several files and zips allowed.
import zoneStyles from '../single/UploadArea.module.css';

export const BATCH_INPUT_ACCEPT = 'image/*,.zip,application/zip,application/x-zip-compressed';

export interface BatchDropZoneProps {
  disabled: boolean;
  onFiles: (files: File[]) => void;
}

/** Drop or browse for product photos, or one zip file of them. */
export function BatchDropZone({ disabled, onFiles }: BatchDropZoneProps) {
  const inputId = useId();
  const { dragging, handlers } = useFileDrop(disabled, onFiles);

  const takeFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.currentTarget.files ?? []);
    // Clearing lets the same files be chosen again after removing them.
    event.currentTarget.value = '';
    if (files.length > 0) onFiles(files);
  };
  return (
    <div
      className={clsx(zoneStyles.zone, dragging && zoneStyles.dragging, disabled && zoneStyles.disabled)}
      {...handlers}
      data-testid="batch-drop-zone"
    >
      <label htmlFor={inputId} className={zoneStyles.browse}>
        <UploadIcon />
        <span className={zoneStyles.browseTitle}>Upload product photos or a zip file</span>
        <span className={zoneStyles.browseText}>
          Drag and drop up to 200 images (.jpg, .png, .webp) or one .zip here, or click to browse
        </span>
      </label>
      <input
        id={inputId}
        className={zoneStyles.input}
        type="file"
        multiple
        accept={BATCH_INPUT_ACCEPT}
        disabled={disabled}
        onChange={takeFiles}
      />
    </div>
  );
}
