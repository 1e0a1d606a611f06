import { useEffect, useRef, useState } from 'react';
import { baseNameOf, capLongSide } from '../../algorithms/resize-plan';
import { applyAlpha } from '../../inference/segmentation';
import type { RgbaImage } from '../../inference/tensors';
import { decodeImage, encodePixels, pixelsOf } from '../../image/canvas';
import { QueueActions, QueueList, useImageQueue } from '../../layout/image-queue';
import { ModelStatus } from '../../layout/ModelStatus';
import { ToolPage } from '../../layout/ToolPage';
import { ToolUploadArea } from '../../layout/ToolUploadArea';
import styles from '../../layout/ToolPage.module.css';
import { useAiModel } from '../../runtime/use-ai-model';
import { TEXTS } from '../../texts';

/** SPEC §9: output capped at 1024 on the long side; colour output JPEG 0.9. */
export const REMOVER_MAX_SIDE = 1024;
const JPEG_QUALITY = 0.9;

const HOW_TO = [
  'Choose one or more product photos, or drop them on the upload area.',
  'Pick a transparent background (PNG) or a background colour (JPEG).',
  'Press Remove background: the AI runs on your device, so your photos never leave it.',
  'Download each result, ready for your Shopify, Amazon or Etsy listing.',
];

function hexToRgb(hex: string) {
  const value = Number.parseInt(hex.slice(1), 16);
  return { r: (value >> 16) & 255, g: (value >> 8) & 255, b: value & 255 };
}

/** The cut-out on the chosen background: transparent → PNG, a colour → JPEG 0.9; named {name}_nobg. */
async function encodeCutOut(image: RgbaImage, alpha: Uint8ClampedArray, colour: string | null, fileName: string) {
  const data = applyAlpha(image, alpha, colour ? hexToRgb(colour) : null);
  const blob = colour
    ? await encodePixels({ ...image, data }, 'image/jpeg', JPEG_QUALITY)
    : await encodePixels({ ...image, data }, 'image/png');
  return { blob, name: `${baseNameOf(fileName)}_nobg.${colour ? 'jpg' : 'png'}` };
}

/** A finished cut-out: the photo and its alpha, kept so a new background applies to it without running the model. */
interface CutOut {
  image: RgbaImage;
  alpha: Uint8ClampedArray;
  fileName: string;
}

/**
 * Named performance measures of one removal, in the browser's performance panel and read by `npm run bench:tools`:
 * the whole (file to encoded result) and its stages.
 */
function measureRemoval(stages: Record<'decode' | 'inference' | 'mask refinement' | 'encode', [number, number]>) {
  for (const [stage, [start, duration]] of Object.entries(stages)) {
    performance.measure(`background removal: ${stage}`, { start, duration });
  }
  performance.measure('background removal', { start: stages.decode[0], end: performance.now() });
}

export function RemoverPage() {
  const model = useAiModel('segmentation', { allowGpu: false });
  const queue = useImageQueue();
  const [background, setBackground] = useState<'transparent' | 'color'>('transparent');
  const [colour, setColour] = useState('#FFFFFF');
  const chosenColour = background === 'color' ? colour : null;
  // The background every result is encoded on: read when an encode starts, so a change during a run applies too.
  const chosenColourRef = useRef(chosenColour);
  chosenColourRef.current = chosenColour;
  const cutOuts = useRef(new Map<number, CutOut>());

  const removeBackgrounds = () => {
    if (model.phase !== 'ready') return;
    void queue.run(async (item) => {
      const decodeStart = performance.now();
      const bitmap = await decodeImage(item.file);
      const size = capLongSide(bitmap.width, bitmap.height, REMOVER_MAX_SIDE);
      const image = pixelsOf(bitmap, size.width, size.height);
      const workerStart = performance.now();
      const reply = await model.worker.request({
        type: 'segment',
        data: image.data,
        width: size.width,
        height: size.height,
      });
      if (reply.type !== 'alpha') throw new Error('unexpected answer');
      const encodeStart = performance.now();
      const { blob, name } = await encodeCutOut(image, reply.alpha, chosenColourRef.current, item.file.name);
      const { prepare, inference, refine } = reply.timings;
      measureRemoval({
        decode: [decodeStart, workerStart - decodeStart],
        inference: [workerStart, prepare + inference],
        'mask refinement': [workerStart + prepare + inference, refine],
        encode: [encodeStart, performance.now() - encodeStart],
      });
      cutOuts.current.set(item.id, { image, alpha: reply.alpha, fileName: item.file.name });
      queue.setResult(item.id, blob, name, size.width, size.height);
    });
  };

  // A new background applies to the results already made: each is encoded again from its kept cut-out. A newer choice
  // (the colour picker changes as it is dragged) supersedes an older one still encoding.
  const { setResult } = queue;
  const recolourPass = useRef(0);
  useEffect(() => {
    const pass = ++recolourPass.current;
    for (const [id, cutOut] of cutOuts.current) {
      encodeCutOut(cutOut.image, cutOut.alpha, chosenColour, cutOut.fileName)
        .then(({ blob, name }) => {
          if (pass === recolourPass.current && cutOuts.current.has(id)) {
            setResult(id, blob, name, cutOut.image.width, cutOut.image.height);
          }
        })
        // An image the browser cannot encode again keeps the result it has.
        .catch(() => undefined);
    }
  }, [chosenColour, setResult]);
  // Cleared images let go of their cut-outs.
  useEffect(() => {
    for (const id of cutOuts.current.keys())
      if (!queue.items.some((item) => item.id === id)) cutOuts.current.delete(id);
  }, [queue.items]);

  return (
    <ToolPage path="/remove-background-shopify" sample="remover" howTo={HOW_TO}>
      <ModelStatus state={model} />
      <ToolUploadArea multiple onFiles={queue.add} disabled={queue.working} />
      <fieldset className={styles.controls}>
        <legend>Background</legend>
        <label>
          <input
            type="radio"
            name="background"
            checked={background === 'transparent'}
            onChange={() => setBackground('transparent')}
          />{' '}
          Transparent (PNG)
        </label>
        <label>
          <input
            type="radio"
            name="background"
            checked={background === 'color'}
            onChange={() => setBackground('color')}
          />{' '}
          Colour (JPEG)
        </label>
        {background === 'color' && (
          <label>
            Background colour{' '}
            <input
              type="color"
              value={colour}
              onChange={(event) => setColour(event.currentTarget.value.toUpperCase())}
            />
          </label>
        )}
      </fieldset>
      <QueueActions
        queue={queue}
        ready={model.phase === 'ready'}
        label="Remove background"
        workingText={TEXTS.processing}
        onRun={removeBackgrounds}
      />
      <QueueList items={queue.items} workingText={TEXTS.processing} />
    </ToolPage>
  );
}
