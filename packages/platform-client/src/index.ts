export {
  createPlatformClient,
  type PlatformClient,
  type PlatformClientOptions,
  type SignInCredentials,
} from './client';
export { resolveApiBaseUrl, type ApiLocation, type PageLocation } from './api-base';
export { configurePlatformClient, getPlatformClient, resetPlatformClient } from './singleton';
export { ApiError, isApiError, UNAUTHORIZED } from './errors';
export { PlatformEvents, type PlatformEvent } from './events';
export { SESSION_KEY_NAME, SIGNED_IN_HINT_NAME } from './session-key';
export { referralCookieName } from './referral';
export { buildPageViewPayload } from './page-view';
export type { SessionState } from './session-store';
export {
  startPaymentReturnRefresh,
  PAYMENT_REFRESH_INTERVAL_MS,
  PAYMENT_REFRESH_DURATION_MS,
  type PaymentReturnOptions,
} from './payment-return';
export {
  PlatformProvider,
  usePlatformClient,
  useSession,
  useCredits,
  usePaymentReturnRefresh,
  type PlatformProviderProps,
  type SessionView,
} from './react';
export type * from './types';
export type { KeyValueStorage, UploadImpl, UploadRequest, UploadAnswer } from './browser-env';
