import { baseNameOf, capLongSide } from '../../algorithms/resize-plan';
import { decodeImage, encodePixels, pixelsOf } from '../../image/canvas';
import { QueueActions, QueueList, useImageQueue } from '../../layout/image-queue';
import { ModelStatus } from '../../layout/ModelStatus';
import { ToolPage } from '../../layout/ToolPage';
import { ToolUploadArea } from '../../layout/ToolUploadArea';
import styles from '../../layout/ToolPage.module.css';
import { upscaleEstimate } from '../../runtime/backend';
import { useAiModel } from '../../runtime/use-ai-model';
import { TEXTS } from '../../texts';

/** SPEC §9: the input is capped at 384 px on the long side (the output is then at most 1536). */
export const UPSCALER_MAX_INPUT = 384;

const HOW_TO = [
  'Choose one or more images, or drop them on the upload area.',
  'Press Upscale: each image is enlarged 4× by an AI model running on your device.',
  'Follow the progress tile by tile; the page stays responsive meanwhile.',
  'Download each result as a PNG.',
];

export function UpscalerPage() {
  const model = useAiModel('upscaler', { allowGpu: true });
  const queue = useImageQueue();

  const upscaleAll = () => {
    if (model.phase !== 'ready') return;
    void queue.run(async (item) => {
      const bitmap = await decodeImage(item.file);
      const size = capLongSide(bitmap.width, bitmap.height, UPSCALER_MAX_INPUT);
      const image = pixelsOf(bitmap, size.width, size.height);
      const started = performance.now();
      const reply = await model.worker.request(
        { type: 'upscale', data: image.data, width: size.width, height: size.height },
        [image.data.buffer],
        (progress) => progress.type === 'progress' && queue.update(item.id, { progress }),
      );
      if (reply.type !== 'image') throw new Error('unexpected answer');
      performance.measure('upscale', { start: started });
      const blob = await encodePixels(reply, 'image/png');
      queue.setResult(item.id, blob, `${baseNameOf(item.file.name)}_upscaled.png`, reply.width, reply.height);
    });
  };

  return (
    <ToolPage path="/image-upscaler" sample="upscaler" howTo={HOW_TO}>
      <ModelStatus state={model} />
      {model.phase === 'ready' && (
        <p className={styles.note} data-testid="upscale-estimate">
          Estimated time per image: {upscaleEstimate(model.device)} (images are capped at {UPSCALER_MAX_INPUT} px before
          upscaling).
        </p>
      )}
      <ToolUploadArea multiple onFiles={queue.add} disabled={queue.working} />
      <QueueActions
        queue={queue}
        ready={model.phase === 'ready'}
        label="Upscale"
        workingText={TEXTS.upscaling}
        onRun={upscaleAll}
      />
      <QueueList items={queue.items} workingText={TEXTS.upscaling} />
    </ToolPage>
  );
}
