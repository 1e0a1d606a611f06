/*
 * What the engine's quality tests share with the tools: the test photos split between calibration and checking,
 * the inputs the calibration feeds the models, and the labelled segmentation set with its scores.
 */
export { photoCrop, testPhotos } from './calibration/calibrate-upscaler-cli';
export { SEGMENTER_SOURCE, segmenterInput } from './calibration/calibrate-segmentation-cli';
export { buildSegmentationSet, catalogueMask, loadSegmentationSet, type SetCase } from './bench/segmentation-set';
export { cutoutCoverage, maskIoU } from './bench/segmentation-score';
