// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- consumers type-checking our sources need the CSS-module typing too
/// <reference path="./css-modules.d.ts" />
export {
  Button,
  LinkButton,
  buttonClassName,
  type ButtonProps,
  type LinkButtonProps,
  type ButtonVariant,
  type ButtonSize,
} from './Button';
export { Spinner, type SpinnerProps } from './Spinner';
export { Menu, type MenuProps, type MenuItem } from './Menu';
export { Modal, type ModalProps } from './Modal';
export { Table, DEFAULT_PAGE_SIZE, type TableProps, type TableColumn, type ServerPaging } from './Table';
export { Pagination, type PaginationProps } from './Pagination';
export { ProgressBar, type ProgressBarProps } from './ProgressBar';
export {
  ToastProvider,
  useToast,
  DEFAULT_TOAST_DURATION_MS,
  type ToastApi,
  type ToastOptions,
  type ToastTone,
} from './Toast';
export { TextField, TextArea, type TextFieldProps, type TextAreaProps } from './TextField';
export { Slider, type SliderProps } from './Slider';
export { ImageViewer, type ImageViewerProps, type ViewerImage } from './ImageViewer';
export { FixesOverlay, type FixesOverlayProps } from './FixesOverlay';
export { SWIPE_THRESHOLD_PX, swipeDirection, swipeTarget, useSwipe, type SwipeDirection } from './swipe';
export { SelectField, type SelectFieldProps, type SelectOption } from './SelectField';
export { MaskBrush, BRUSH_SIZES, type MaskBrushProps, type BrushMode, type BrushSizeId } from './MaskBrush';
export { UploadArea, UploadIcon, type UploadAreaProps } from './UploadArea';
export { paintSegment, copyMask, sameMask, type Mask, type Point, type DirtyRect } from './mask-painting';
