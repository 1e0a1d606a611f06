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
export { IMAGE_INDEX_REQUIRED_MESSAGE } from './app';
