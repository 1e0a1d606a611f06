import { authInternalRoutes } from './auth';
import { billingInternalRoutes } from './billing';
import { generationInternalRoutes } from './generation';
import type { InternalRoute } from './route';

export * from './route';
export * from './auth';
export * from './billing';
export * from './generation';

/** Every internal call of the platform, by id; each owner's table is also exported on its own. */
export const internalRoutes = {
  ...authInternalRoutes,
  ...billingInternalRoutes,
  ...generationInternalRoutes,
} as const;

export const allInternalRoutes: readonly InternalRoute[] = Object.values(internalRoutes);
