import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { Button, Slider, Spinner } from '@productgen/ui-kit';
import { baseNameOf, capLongSide } from '../../algorithms/resize-plan';
import type { RgbaImage } from '../../inference/tensors';
import { canvasOf, decodeImage, downloadBlob, encodePixels, pixelsOf } from '../../image/canvas';
import { ToolPage } from '../../layout/ToolPage';
import { ToolUploadArea } from '../../layout/ToolUploadArea';
import layout from '../../layout/ToolPage.module.css';
import { TEXTS } from '../../texts';
import { addErased, currentVersion, moveTo, resetToOriginal, startHistory, type History } from './history';
import { useFillWorker } from './use-fill-worker';
import styles from './EraserPage.module.css';

/** SPEC §5 and §9: images fit 1024 on a side; brush 10–100 px, default 40. */
export const ERASER_MAX_SIDE = 1024;
const BRUSH_MIN = 10;
const BRUSH_MAX = 100;
const BRUSH_DEFAULT = 40;

const HOW_TO = [
  'Upload a photo with the file picker or drop it on the upload area.',
  'Set the brush size and paint over the object you want gone.',
  'Release: the painted area is filled from the surrounding picture.',
  'Step through versions with Previous and Next, or Reset to Original.',
  'Download the result as a PNG.',
];

interface Photo {
  name: string;
  history: History<RgbaImage>;
}

export function EraserPage() {
  const engine = useFillWorker();
  const [photo, setPhoto] = useState<Photo>();
  const [brush, setBrush] = useState(BRUSH_DEFAULT);
  const [erasing, setErasing] = useState(false);
  const [error, setError] = useState('');
  const imageCanvas = useRef<HTMLCanvasElement>(null);
  const strokeCanvas = useRef<HTMLCanvasElement>(null);
  const lastPoint = useRef<{ x: number; y: number } | null>(null);
  const painted = useRef(false);

  const shown = photo ? currentVersion(photo.history) : undefined;

  useEffect(() => {
    const canvas = imageCanvas.current;
    if (!canvas || !shown) return;
    canvas.width = shown.image.width;
    canvas.height = shown.image.height;
    canvas.getContext('2d')?.drawImage(canvasOf(shown.image), 0, 0);
    const strokes = strokeCanvas.current;
    if (strokes) {
      strokes.width = shown.image.width;
      strokes.height = shown.image.height;
    }
  }, [shown]);

  const load = async ([file]: File[]) => {
    if (!file) return;
    setError('');
    try {
      const bitmap = await decodeImage(file);
      const size = capLongSide(bitmap.width, bitmap.height, ERASER_MAX_SIDE);
      setPhoto({ name: file.name, history: startHistory(pixelsOf(bitmap, size.width, size.height)) });
    } catch {
      setError(`${file.name} could not be read as an image.`);
    }
  };

  /** Pointer position in image pixels (the canvas is shown scaled). */
  const toImage = (event: PointerEvent<HTMLCanvasElement>) => {
    const canvas = event.currentTarget;
    const rect = canvas.getBoundingClientRect();
    const scale = canvas.width / rect.width;
    return { x: (event.clientX - rect.left) * scale, y: (event.clientY - rect.top) * scale, scale };
  };

  const paintTo = (event: PointerEvent<HTMLCanvasElement>) => {
    const context = event.currentTarget.getContext('2d');
    if (!context) return;
    const point = toImage(event);
    const from = lastPoint.current ?? point;
    context.strokeStyle = '#ff0000';
    context.lineCap = 'round';
    context.lineJoin = 'round';
    // The brush size is what the visitor sees on screen; the mask is at the image's resolution.
    context.lineWidth = brush * point.scale;
    context.beginPath();
    context.moveTo(from.x, from.y);
    context.lineTo(point.x, point.y + (from === point ? 0.01 : 0));
    context.stroke();
    lastPoint.current = point;
    painted.current = true;
  };

  const erase = async () => {
    const strokes = strokeCanvas.current;
    if (!photo || !shown || !strokes || engine.phase !== 'ready') return;
    const context = strokes.getContext('2d');
    if (!context) return;
    const alpha = context.getImageData(0, 0, strokes.width, strokes.height).data;
    const mask = new Uint8Array(strokes.width * strokes.height);
    for (let i = 0; i < mask.length; i += 1) mask[i] = alpha[4 * i + 3] > 0 ? 1 : 0;
    setErasing(true);
    setError('');
    try {
      const reply = await engine.worker.request(
        {
          type: 'fill',
          data: new Uint8ClampedArray(shown.image.data),
          width: shown.image.width,
          height: shown.image.height,
          mask,
        },
        [mask.buffer],
      );
      if (reply.type !== 'image') throw new Error('unexpected answer');
      setPhoto({
        ...photo,
        history: addErased(photo.history, { data: reply.data, width: reply.width, height: reply.height }),
      });
    } catch {
      setError(TEXTS.inpaintingFailed);
    } finally {
      context.clearRect(0, 0, strokes.width, strokes.height);
      setErasing(false);
    }
  };

  const download = async () => {
    if (!photo || !shown) return;
    downloadBlob(await encodePixels(shown.image, 'image/png'), `${baseNameOf(photo.name)}-processed.png`);
  };

  const ready = engine.phase === 'ready';
  const history = photo?.history;
  return (
    <ToolPage path="/remove-object-from-photo" sample="eraser" howTo={HOW_TO}>
      {engine.phase === 'error' ? (
        <div role="alert" className={layout.error}>
          <strong>{TEXTS.modelError}</strong>
          <p>{engine.message}</p>
        </div>
      ) : (
        <p className={layout.status} data-testid={ready ? 'model-ready' : 'model-loading'}>
          {ready ? 'Device mode: CPU (the fill runs in a background thread on this device)' : TEXTS.loadingRuntime}
        </p>
      )}
      <p className={layout.note}>
        The eraser fills what you paint from the surrounding picture (PatchMatch texture synthesis on your device, no
        generative model): it works best on backgrounds with texture that repeats, such as sand, grass, fabric or a
        wall.
      </p>
      {!photo ? (
        <ToolUploadArea onFiles={(files) => void load(files)} disabled={!ready} />
      ) : (
        <>
          <div className={layout.controls}>
            <Slider
              label="Brush size"
              min={BRUSH_MIN}
              max={BRUSH_MAX}
              value={brush}
              onChange={setBrush}
              formatValue={(value) => `${value} px`}
            />
          </div>
          <div className={styles.stage}>
            <canvas ref={imageCanvas} className={styles.image} aria-label="Photo being edited" />
            <canvas
              ref={strokeCanvas}
              className={styles.strokes}
              aria-label="Paint over what to erase"
              onPointerDown={(event) => {
                if (erasing || !ready) return;
                event.currentTarget.setPointerCapture(event.pointerId);
                lastPoint.current = null;
                painted.current = false;
                paintTo(event);
              }}
              onPointerMove={(event) => {
                if (event.buttons === 1 && lastPoint.current) paintTo(event);
              }}
              onPointerUp={() => {
                lastPoint.current = null;
                if (painted.current) void erase();
                painted.current = false;
              }}
            />
            {(erasing || !ready) && (
              <div className={styles.overlay} role="status">
                <Spinner label={null} /> {erasing ? TEXTS.processing : TEXTS.loadingRuntime}
              </div>
            )}
          </div>
          {history && shown && (
            <div className={layout.controls}>
              <Button
                variant="secondary"
                onClick={() => setPhoto({ ...photo, history: moveTo(history, history.current - 1) })}
                disabled={erasing || history.current === 0}
              >
                Previous
              </Button>
              <span data-testid="eraser-version">
                Version {history.current + 1} of {history.versions.length}: {shown.description}
              </span>
              <Button
                variant="secondary"
                onClick={() => setPhoto({ ...photo, history: moveTo(history, history.current + 1) })}
                disabled={erasing || history.current === history.versions.length - 1}
              >
                Next
              </Button>
              <Button
                variant="secondary"
                onClick={() => setPhoto({ ...photo, history: resetToOriginal(history) })}
                disabled={erasing || history.versions.length === 1}
              >
                Reset to Original
              </Button>
              <Button onClick={() => void download()} disabled={erasing}>
                Download
              </Button>
              <Button variant="ghost" onClick={() => setPhoto(undefined)} disabled={erasing}>
                Clear Image
              </Button>
            </div>
          )}
        </>
      )}
      {error && (
        <p role="alert" className={layout.error}>
          {error}
        </p>
      )}
    </ToolPage>
  );
}
