import clsx from 'clsx';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { copyMask, paintSegment, sameMask, type DirtyRect, type Mask, type Point } from './mask-painting';
import styles from './MaskBrush.module.css';

export type BrushMode = 'keep' | 'remove';

/** Brush radii as a share of the picture's long side, so a size means the same on any photo. */
export const BRUSH_SIZES = [
  { id: 'small', label: 'Small', share: 0.015 },
  { id: 'medium', label: 'Medium', share: 0.04 },
  { id: 'large', label: 'Large', share: 0.09 },
] as const;
export type BrushSizeId = (typeof BRUSH_SIZES)[number]['id'];

/** Undo steps kept (each is one copy of the mask). */
const UNDO_DEPTH = 20;
/** How much of the removed background still shows, so the seller sees what to paint back. */
const REMOVED_OPACITY = 0.3;

export interface MaskBrushProps {
  /** The picture the mask covers (any image address): shown cut out by the mask, over a checkerboard. */
  photo: string;
  /** The mask to start from; Reset returns to it. */
  initial: Mask;
  /** After every stroke, undo and reset: the brush's current mask and whether it differs from `initial`. */
  onChange?: (mask: Mask, edited: boolean) => void;
  disabled?: boolean;
  /** Only shows the cut-out: no tools, no painting (a brush folded away keeps its strokes and history). */
  readOnly?: boolean;
  /** Accessible name of the picture. */
  label?: string;
  className?: string;
}

function context2d(canvas: HTMLCanvasElement | null): CanvasRenderingContext2D | null {
  return canvas?.getContext('2d') ?? null;
}

/**
 * A Keep / Remove brush over a mask (mouse, pen and touch through pointer events), with brush sizes, undo and reset.
 * Every control is a named button in the tab order; the picture itself is painted with a pointer.
 */
export function MaskBrush({
  photo,
  initial,
  onChange,
  disabled = false,
  readOnly = false,
  label,
  className,
}: MaskBrushProps) {
  const { width, height } = initial;
  const [mode, setMode] = useState<BrushMode>('keep');
  const [size, setSize] = useState<BrushSizeId>('medium');
  const [undoDepth, setUndoDepth] = useState(0);
  const [edited, setEdited] = useState(false);
  const mask = useRef<Mask>(copyMask(initial));
  const undo = useRef<Mask[]>([]);
  const stroke = useRef<{ pointerId: number; last: Point } | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const picture = useRef<HTMLImageElement | null>(null);
  // The mask as an alpha layer, and the photo cut out by it: off-screen canvases at the mask's size.
  const layers = useRef<{ alpha: HTMLCanvasElement; pixels: ImageData; cutout: HTMLCanvasElement } | null>(null);

  function draw(): void {
    const screen = context2d(canvas.current);
    const image = picture.current;
    if (!screen || !image || !layers.current) return;
    const cutout = context2d(layers.current.cutout)!;
    cutout.globalCompositeOperation = 'source-over';
    cutout.clearRect(0, 0, width, height);
    cutout.drawImage(image, 0, 0, width, height);
    cutout.globalCompositeOperation = 'destination-in';
    cutout.drawImage(layers.current.alpha, 0, 0);
    cutout.globalCompositeOperation = 'source-over';
    screen.clearRect(0, 0, width, height);
    screen.globalAlpha = REMOVED_OPACITY;
    screen.drawImage(image, 0, 0, width, height);
    screen.globalAlpha = 1;
    screen.drawImage(layers.current.cutout, 0, 0);
  }

  /** Copies the mask into the alpha layer (only `rect` when given) and redraws. */
  function refresh(rect: DirtyRect = { left: 0, top: 0, right: width, bottom: height }): void {
    const current = layers.current;
    if (!current) return;
    const { pixels } = current;
    for (let y = rect.top; y < rect.bottom; y += 1) {
      for (let x = rect.left; x < rect.right; x += 1)
        pixels.data[(y * width + x) * 4 + 3] = mask.current.data[y * width + x]!;
    }
    context2d(current.alpha)?.putImageData(
      pixels,
      0,
      0,
      rect.left,
      rect.top,
      rect.right - rect.left,
      rect.bottom - rect.top,
    );
    draw();
  }

  // A new starting mask (another photo) starts over: the layers, the history and the picture.
  useEffect(() => {
    mask.current = copyMask(initial);
    undo.current = [];
    setUndoDepth(0);
    setEdited(false);
    const alpha = document.createElement('canvas');
    const cutout = document.createElement('canvas');
    alpha.width = cutout.width = width;
    alpha.height = cutout.height = height;
    const alphaContext = context2d(alpha);
    layers.current = alphaContext ? { alpha, cutout, pixels: alphaContext.createImageData(width, height) } : null;
    refresh();
    let active = true;
    const image = new Image();
    image.onload = () => {
      if (!active) return;
      picture.current = image;
      draw();
    };
    image.src = photo;
    return () => {
      active = false;
      picture.current = null;
    };
    // Only a new starting mask or photo starts over; refresh and draw read refs.
  }, [initial, photo]);

  function changed(): void {
    const isEdited = !sameMask(mask.current, initial);
    setEdited(isEdited);
    setUndoDepth(undo.current.length);
    onChange?.(mask.current, isEdited);
  }

  const radius = () => (BRUSH_SIZES.find((entry) => entry.id === size)!.share * Math.max(width, height)) / 2;

  /** The pointer's position in mask pixels (the canvas is shown scaled to fit). */
  function toMask(event: PointerEvent<HTMLCanvasElement>): Point {
    const box = event.currentTarget.getBoundingClientRect();
    return {
      x: ((event.clientX - box.left) * width) / (box.width || width),
      y: ((event.clientY - box.top) * height) / (box.height || height),
    };
  }

  function paintTo(point: Point): void {
    const from = stroke.current?.last ?? point;
    const rect = paintSegment(mask.current, from, point, radius(), mode === 'keep' ? 255 : 0);
    if (stroke.current) stroke.current.last = point;
    if (rect) refresh(rect);
  }

  function startStroke(event: PointerEvent<HTMLCanvasElement>): void {
    if (disabled || readOnly || stroke.current || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    undo.current = [...undo.current.slice(-(UNDO_DEPTH - 1)), copyMask(mask.current)];
    const point = toMask(event);
    stroke.current = { pointerId: event.pointerId, last: point };
    paintTo(point);
  }

  function endStroke(event: PointerEvent<HTMLCanvasElement>): void {
    if (stroke.current?.pointerId !== event.pointerId) return;
    stroke.current = null;
    changed();
  }

  function undoStroke(): void {
    const previous = undo.current.pop();
    if (!previous) return;
    mask.current = previous;
    refresh();
    changed();
  }

  function reset(): void {
    undo.current = [...undo.current.slice(-(UNDO_DEPTH - 1)), copyMask(mask.current)];
    mask.current = copyMask(initial);
    refresh();
    changed();
  }

  return (
    <div className={clsx(styles.brush, className)}>
      <div className={styles.toolbar} hidden={readOnly}>
        <div role="group" aria-label="Brush" className={styles.group}>
          {(['keep', 'remove'] as const).map((option) => (
            <button
              key={option}
              type="button"
              className={clsx(styles.toggle, mode === option && styles.pressed)}
              aria-pressed={mode === option}
              disabled={disabled}
              onClick={() => setMode(option)}
            >
              {option === 'keep' ? 'Keep' : 'Remove'}
            </button>
          ))}
        </div>
        <div role="group" aria-label="Brush size" className={styles.group}>
          {BRUSH_SIZES.map((option) => (
            <button
              key={option.id}
              type="button"
              className={clsx(styles.toggle, size === option.id && styles.pressed)}
              aria-pressed={size === option.id}
              disabled={disabled}
              onClick={() => setSize(option.id)}
            >
              {option.label}
            </button>
          ))}
        </div>
        <div className={styles.group}>
          <button type="button" className={styles.toggle} disabled={disabled || undoDepth === 0} onClick={undoStroke}>
            Undo
          </button>
          <button type="button" className={styles.toggle} disabled={disabled || !edited} onClick={reset}>
            Reset
          </button>
        </div>
      </div>
      <div className={styles.stage}>
        <canvas
          ref={canvas}
          width={width}
          height={height}
          className={clsx(styles.canvas, (disabled || readOnly) && styles.canvasDisabled)}
          role="img"
          aria-label={label ?? 'Cut-out'}
          data-brush={mode}
          onPointerDown={startStroke}
          onPointerMove={(event) => {
            if (stroke.current?.pointerId === event.pointerId) paintTo(toMask(event));
          }}
          onPointerUp={endStroke}
          onPointerCancel={endStroke}
        />
      </div>
    </div>
  );
}
