import { z } from 'zod';
import { shopContextEntrySchema } from '@productgen/contracts';
import { createInternalHttpClient } from '@productgen/service-kit';

/** The part of auth's GET /internal/users/:id the renderer uses. */
export const shopProfileSchema = z.object({
  shop_context: z.array(shopContextEntrySchema).default([]),
  brand_colors: z.array(z.string()).default([]),
});
export type ShopProfile = z.infer<typeof shopProfileSchema>;

export interface AuthClient {
  shopProfile(userId: string): Promise<ShopProfile>;
}

export function createAuthClient(options: { baseUrl: string; timeoutMs?: number }): AuthClient {
  const http = createInternalHttpClient({ baseUrl: options.baseUrl, target: 'auth', timeoutMs: options.timeoutMs });
  return {
    shopProfile: (userId) => http.get(`/internal/users/${encodeURIComponent(userId)}`, { schema: shopProfileSchema }),
  };
}
