import { UploadArea } from '@productgen/ui-kit';
import { TEXTS } from '../texts';

/** The tools' upload area: ui-kit's, taking images only, with the tools' wording. */
export function ToolUploadArea({
  multiple = false,
  onFiles,
  disabled,
}: {
  multiple?: boolean;
  onFiles: (files: File[]) => void;
  disabled: boolean;
}) {
  return (
    <UploadArea
      multiple={multiple}
      imagesOnly
      title={multiple ? TEXTS.uploadImages : TEXTS.uploadImage}
      text={TEXTS.uploadHint}
      onFiles={onFiles}
      disabled={disabled}
    />
  );
}
