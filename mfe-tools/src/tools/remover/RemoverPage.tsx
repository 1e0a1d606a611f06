import { useState } from 'react';
import { baseNameOf, capLongSide } from '../../algorithms/resize-plan';
import { applyAlpha } from '../../inference/segmentation';
import type { RgbaImage } from '../../inference/tensors';
import { decodeImage, encodePixels, pixelsOf } from '../../image/canvas';
import { QueueActions, QueueList, useImageQueue } from '../../layout/image-queue';
import { ModelStatus } from '../../layout/ModelStatus';
import { ToolPage } from '../../layout/ToolPage';
import { UploadArea } from '../../layout/UploadArea';
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

export function RemoverPage() {
  const model = useAiModel('segmentation', { allowGpu: false });
  const queue = useImageQueue();
  const [background, setBackground] = useState<'transparent' | 'color'>('transparent');
  const [colour, setColour] = useState('#FFFFFF');

  const removeBackgrounds = () => {
    if (model.phase !== 'ready') return;
    const chosenColour = background === 'color' ? colour : null;
    void queue.run(async (item) => {
      const bitmap = await decodeImage(item.file);
      const size = capLongSide(bitmap.width, bitmap.height, REMOVER_MAX_SIDE);
      const image = pixelsOf(bitmap, size.width, size.height);
      const started = performance.now();
      const reply = await model.worker.request({
        type: 'segment',
        data: image.data,
        width: size.width,
        height: size.height,
      });
      if (reply.type !== 'alpha') throw new Error('unexpected answer');
      performance.measure('background removal', { start: started });
      const { blob, name } = await encodeCutOut(image, reply.alpha, chosenColour, item.file.name);
      queue.setResult(item.id, blob, name, size.width, size.height);
    });
  };

  return (
    <ToolPage path="/remove-background-shopify" sample="remover" howTo={HOW_TO}>
      <ModelStatus state={model} />
      <UploadArea multiple onFiles={queue.add} disabled={queue.working} />
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
