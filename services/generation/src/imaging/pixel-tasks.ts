import { cutoutFromMatte, refineCutout } from '../pipeline/cutout';
import { composeCanvas } from './canvas';
import { paintScene } from './scene';
import { sharpenRgba } from './sharpen';
import { addFinerDetail, packTiles, unpackTile } from './upscale';

/** What the pixel thread runs (pixel-worker.js): pure functions of plain data, nothing that needs the main thread. */
export const pixelTasks = {
  paintScene,
  refineCutout,
  cutoutFromMatte,
  packTiles,
  unpackTile,
  addFinerDetail,
  composeCanvas,
  sharpenRgba,
};

export type PixelTasks = typeof pixelTasks;
