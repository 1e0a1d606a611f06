export { devstackConfigSchema, type DevstackConfig } from './config';
export {
  startEmbeddedInfrastructure,
  type EmbeddedInfrastructure,
  type EmbeddedInfrastructureOptions,
} from './infrastructure';
export { startEmbeddedPlatform, type EmbeddedPlatform, type ServiceContext, type ComposedService } from './platform';
export {
  createWebApp,
  findMicrofrontendBuilds,
  publishMicrofrontend,
  readRegistry,
  updateRegistryEntry,
  versionedPath,
  type MicrofrontendBuild,
  type RuntimeConfig,
  type WebAppOptions,
} from './web';
