import { closePixelThread } from './pixel-thread';
import { closeInferenceThread } from '../models/model-sessions';

/**
 * Ends the studio's worker threads (inference and pixels): process shutdown, test teardown and one-shot scripts
 * (a build that rendered the demo must exit). The next render starts them again.
 */
export async function closeStudioThreads(): Promise<void> {
  await Promise.all([closeInferenceThread(), closePixelThread()]);
}
