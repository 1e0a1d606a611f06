import type { ShopContextEntry } from '@productgen/contracts';
import { authInternalRoutes } from '@productgen/contracts';
import { createInternalApiClient, type ServiceIdentity } from '@productgen/service-kit';

/** The part of auth's internal user the renderer uses. */
export interface ShopProfile {
  shop_context: ShopContextEntry[];
  brand_colors: string[];
}

export interface AuthClient {
  shopProfile(userId: string): Promise<ShopProfile>;
}

export function createAuthClient(options: {
  baseUrl: string;
  timeoutMs?: number;
  identity: ServiceIdentity;
}): AuthClient {
  const auth = createInternalApiClient(authInternalRoutes, { ...options, target: 'auth' });
  return {
    shopProfile: async (userId) => {
      const user = await auth.getUser({ params: { id: userId } });
      return { shop_context: user.shop_context, brand_colors: user.brand_colors };
    },
  };
}
