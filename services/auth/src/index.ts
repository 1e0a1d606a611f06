export { createAuthService, type AuthService, type AuthServiceDeps } from './service';
export {
  authConfigSchema,
  distributedAuthConfigSchema,
  isDevIdpEnabled,
  DEV_GOOGLE_CLIENT_ID,
  type AuthConfig,
} from './config';
export { authQueues } from './messaging/consumers';
export { SIGN_IN_FAILED_MESSAGE } from './app';
export { shopCategories, deriveShopProfile, type ShopCategoryId, type ShopProfile } from './domain/shop-context';
export { isAddressAllowed, type AddressPolicy } from './domain/url-safety';
export {
  createSafeSiteFetcher,
  SiteFetchFailedError,
  SiteFetchRefusedError,
  type FetchedPage,
  type SafeSiteFetcherOptions,
  type SiteFetcher,
} from './shop/site-fetcher';
export type { DevIdentityProvider } from './identity/dev-idp';
