export { createGenerationService, type GenerationService, type GenerationServiceDeps } from './service';
export {
  generationConfigSchema,
  distributedGenerationConfigSchema,
  workerConfigSchema,
  type GenerationConfig,
} from './config';
export { generationQueues, RenderWorker } from './messaging/render-worker';
export { createBillingClient, type BillingClient } from './clients/billing';
export { createAuthClient, type AuthClient, type ShopProfile } from './clients/auth';
export { categories, type CategoryId } from './domain/categories';
export { looks, styleRecipeSchema, type LookId, type StyleRecipe } from './domain/styles';
export { IMAGE_INDEX_REQUIRED_MESSAGE } from './app';
export {
  ensureModels,
  fetchModels,
  ModelFilesMissingError,
  MODELS_FETCH_COMMAND,
  type ModelFiles,
} from './models/model-store';
export { closeStudioThreads } from './threads/studio-threads';
