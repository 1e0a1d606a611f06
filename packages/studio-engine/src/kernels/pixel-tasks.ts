import { cutoutFromStoredMatte, refineCutout } from '../pipeline/cutout';
import { composeImage } from './compose';
import { detailProduct } from './finish';
import { paintScene } from './scene';
import { sharpenRgba } from './sharpen';
import { packTiles, unpackTile } from './upscale';

/**
 * What the pixel thread runs (pixel-worker.js): functions of plain data (some call libvips through sharp), nothing
 * that needs the main thread.
 */
export const pixelTasks = {
  paintScene,
  refineCutout,
  cutoutFromStoredMatte,
  packTiles,
  unpackTile,
  detailProduct,
  composeImage,
  sharpenRgba,
};

export type PixelTasks = typeof pixelTasks;
