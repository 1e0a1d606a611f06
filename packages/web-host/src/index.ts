export { createMicrofrontendHost, createShellHost, isPublishedVersion, versionedPath } from './app';
export { setCacheHeaders, setIsolationHeaders } from './headers';
export { serveStaticFiles, type StaticFilesOptions } from './static-files';
export { cspNonceOf, webOriginHeaders, type WebOriginSources } from './security-headers';
export {
  createPageDocuments,
  servePageDocuments,
  readFileOrNull,
  type PageDocument,
  type PageSources,
  type PageRouteOptions,
} from './page-documents';
export {
  TOOL_PATHS,
  trackingScriptsConfig,
  trackingScriptsOf,
  microfrontendHostConfigSchema,
  shellHostConfigSchema,
  type MicrofrontendHostConfig,
  type ShellHostConfig,
} from './config';
