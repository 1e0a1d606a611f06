export { createMicrofrontendHost, createShellHost, versionedPath } from './app';
export { setCacheHeaders, setIsolationHeaders } from './headers';
export {
  TOOL_PATHS,
  microfrontendHostConfigSchema,
  shellHostConfigSchema,
  type MicrofrontendHostConfig,
  type ShellHostConfig,
} from './config';
