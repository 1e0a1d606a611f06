import path from 'node:path';

/** The machine's shared photo set and model folder (../shared beside the repository). */
export const PHOTOS_DIR = path.resolve(__dirname, '../../../../shared/photos');
export const SHARED_MODELS_DIR = path.resolve(__dirname, '../../../../shared/models');
