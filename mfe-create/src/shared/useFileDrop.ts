import { useState, type DragEvent } from 'react';

/** Drag-and-drop of files onto a drop zone: whether files are being dragged over it, and its handlers. */
export function useFileDrop(disabled: boolean, onFiles: (files: File[]) => void) {
  const [dragging, setDragging] = useState(false);
  return {
    dragging,
    handlers: {
      onDragOver: (event: DragEvent) => {
        // Without preventDefault the browser would open the dropped file instead.
        event.preventDefault();
        if (!disabled) setDragging(true);
      },
      onDragLeave: () => setDragging(false),
      onDrop: (event: DragEvent) => {
        event.preventDefault();
        setDragging(false);
        const files = Array.from(event.dataTransfer.files);
        if (files.length > 0 && !disabled) onFiles(files);
      },
    },
  };
}
