import { cutoutFromMatte, refineCutout } from '../pipeline/cutout';
import { composeImage } from './compose';
import { paintScene } from './scene';
import { sharpenRgba } from './sharpen';
import { addFinerDetail, packTiles, unpackTile } from './upscale';

/**
 * What the pixel thread runs (pixel-worker.js): functions of plain data (some call libvips through sharp), nothing
 * that needs the main thread.
 */
export const pixelTasks = {
  paintScene,
  refineCutout,
  cutoutFromMatte,
  packTiles,
  unpackTile,
  addFinerDetail,
  composeImage,
  sharpenRgba,
};

export type PixelTasks = typeof pixelTasks;
