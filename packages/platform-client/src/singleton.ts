import { createPlatformClient, type PlatformClient, type PlatformClientOptions } from './client';

// Module-level on purpose: module federation shares this package as a singleton, so the shell configures
// the client once and every microfrontend gets the same instance, session and event emitter.
let instance: PlatformClient | null = null;

/** Creates the page's client; the shell calls this once at start. Reconfiguring replaces the instance. */
export function configurePlatformClient(options: PlatformClientOptions): PlatformClient {
  instance = createPlatformClient(options);
  return instance;
}

export function getPlatformClient(): PlatformClient {
  if (!instance) {
    throw new Error('The platform client is not configured: call configurePlatformClient({ apiBaseUrl }) first');
  }
  return instance;
}

/** For tests and hot reload: forget the configured client. */
export function resetPlatformClient(): void {
  instance = null;
}
