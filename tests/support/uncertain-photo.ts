import { readFile } from 'node:fs/promises';
import sharp from 'sharp';

/**
 * A real photo the engine is unsure of, made by a reproducible edit: blurred until neither its outline nor what it
 * is can be told for sure (the same edit as generation's batch-check test), so a batch holds it for the seller's
 * check. The blur is deterministic, so every run uploads the same bytes.
 */
export async function blurredBeyondCertainty(photoPath: string): Promise<Buffer> {
  return sharp(await readFile(photoPath))
    .blur(25)
    .jpeg()
    .toBuffer();
}
