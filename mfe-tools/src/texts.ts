/** The tools' texts, exactly as SPEC §4 and §8 word them. */
export const TEXTS = {
  loadingRuntime: 'Loading AI Engine...',
  loadingModel: 'Loading Model...',
  processing: 'Processing...',
  upscaling: 'Upscaling...',
  modelError: 'Model Error',
  runtimeScriptFailed: 'Failed to load ONNX runtime script. Please try refreshing the page.',
  modelFetchFailed: (status: number) => `Failed to fetch model: ${status}`,
  modelLoadFailed: 'Failed to load the AI model. Please check your connection or try again later.',
  eraserModelFailed: 'Failed to load AI model. Please refresh the page.',
  eraserSystemFailed: 'Failed to load AI system. Please refresh the page.',
  inpaintingFailed: 'Inpainting failed. Try again.',
  uploadImages: 'Choose images or drop them here',
  uploadImage: 'Choose an image or drop it here',
  uploadHint: 'JPEG, PNG or WebP · stays on your device',
  ctaSignedIn: 'Create now',
  ctaSignedOut: 'Get Started Free',
} as const;
