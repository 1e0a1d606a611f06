import { Spinner, UploadArea as SharedUploadArea } from '@productgen/ui-kit';
import styles from './UploadArea.module.css';

// The batch tab's drop zone shows the same icon.
export { UploadIcon } from '@productgen/ui-kit';

export interface UploadAreaProps {
  photo: string | null;
  analysing: boolean;
  disabled: boolean;
  /** Shows the first-generation "Click to start!" hint on the area. */
  hint?: string | null;
  onFile: (file: File) => void;
}

/**
 * The photo drop/upload area (ui-kit's UploadArea). Desktop: drop or click to browse. Phones (narrow screens, by
 * CSS): Take Photo opens the rear camera, Choose from Gallery the photo library. Every input accepts images only.
 */
export function UploadArea({ photo, analysing, disabled, hint, onFile }: UploadAreaProps) {
  return (
    <SharedUploadArea
      title={photo ? 'Replace photo' : 'Upload a product photo'}
      text={photo ? undefined : 'Drag and drop an image here, or click to browse'}
      disabled={disabled}
      hint={hint}
      phoneButtons
      onFiles={([file]) => file && onFile(file)}
      preview={
        photo && (
          <figure className={styles.preview}>
            <img src={photo} alt="Your product photo" className={styles.previewImage} />
            {analysing && (
              <figcaption className={styles.analysing} role="status">
                <Spinner size="sm" label={null} />
                Analyzing image...
              </figcaption>
            )}
          </figure>
        )
      }
    />
  );
}
