import { cutoutFromStoredMatte, refineCutout } from './cutout';
import { composeImage } from './compose-image';
import { detailProduct } from './detail';
import { paintScene } from './scene';
import { sharpenRgba } from './sharpen';
import { packTiles, unpackTile } from './tiles';

/**
 * What the pixel thread runs (threads/pixel-thread-entry.js): functions of plain data (some call libvips through sharp), nothing
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
