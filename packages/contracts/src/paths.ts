/*
 * Method and path of every public API route, by route id. The route table (api.ts) is built on these and the
 * browser's platform client calls them, so a path is written once. This module imports nothing (no zod): the
 * browser bundles take it alone, and the schemas stay on the server side.
 */

export const httpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof httpMethods)[number];

export interface RoutePath {
  method: HttpMethod;
  /** Express-style path, e.g. `/image-gen/status/:generation_uuid`. */
  path: string;
}

export const routePaths = {
  authGoogle: { method: 'POST', path: '/auth/google' },
  authMe: { method: 'GET', path: '/auth/me' },
  authLogout: { method: 'POST', path: '/auth/logout' },
  saveUserSettings: { method: 'POST', path: '/user/settings' },
  saveUserMetadata: { method: 'POST', path: '/user/settings/metadata' },
  closeTooltip: { method: 'POST', path: '/user/settings/close-tooltip' },
  saveReferralSource: { method: 'POST', path: '/hear-about-source' },
  hasSeenReferralForm: { method: 'GET', path: '/hear-about-source/has-seen' },
  devIdpCredential: { method: 'GET', path: '/dev-idp/credential' },
  createCheckoutSession: { method: 'POST', path: '/payments/create-checkout-session' },
  checkPaymentSuccess: { method: 'POST', path: '/payments/check-success' },
  paymentWebhook: { method: 'POST', path: '/payments/webhook' },
  paymentRecords: { method: 'GET', path: '/payment-records' },
  creditLog: { method: 'GET', path: '/credits/log' },
  requestRefund: { method: 'POST', path: '/support/refund' },
  devCheckoutPage: { method: 'GET', path: '/dev-checkout/:sessionId' },
  devCheckoutPay: { method: 'POST', path: '/dev-checkout/:sessionId/pay' },
  listCategories: { method: 'GET', path: '/image-gen/categories' },
  analyzeImage: { method: 'POST', path: '/image-gen/category' },
  getCutout: { method: 'GET', path: '/image-gen/cutout/:generation_uuid' },
  saveCutout: { method: 'PUT', path: '/image-gen/cutout/:generation_uuid' },
  correctAnalysis: { method: 'PATCH', path: '/image-gen/analysis/:generation_uuid' },
  imageGen: { method: 'POST', path: '/imageGen' },
  imageGenFromId: { method: 'POST', path: '/imageGenFromId' },
  generationStatus: { method: 'GET', path: '/image-gen/status/:generation_uuid' },
  listGenerations: { method: 'GET', path: '/image-gen/generations' },
  generationDetail: { method: 'GET', path: '/image-gen/generated/:id' },
  listRecords: { method: 'GET', path: '/records' },
  listStylePresets: { method: 'GET', path: '/style-presets' },
  createStylePreset: { method: 'POST', path: '/style-presets' },
  getStylePreset: { method: 'GET', path: '/style-presets/:id' },
  downloadImage: { method: 'GET', path: '/download/:id/image/:index' },
  downloadGeneration: { method: 'GET', path: '/download/:id/batch' },
  createBulkJob: { method: 'POST', path: '/image-gen/bulk-zip' },
  getBulkJob: { method: 'GET', path: '/image-gen/bulk-job/:id' },
  listBulkJobs: { method: 'GET', path: '/image-gen/bulk-jobs' },
  downloadBulkJob: { method: 'GET', path: '/download/bulk/:id' },
  listBulkChecks: { method: 'GET', path: '/image-gen/bulk-job/:id/checks' },
  decideBulkCheck: { method: 'POST', path: '/image-gen/bulk-job/:id/checks/:index' },
  removeBulkProduct: { method: 'DELETE', path: '/image-gen/bulk-job/:id/products/:index' },
  redoBulkProduct: { method: 'POST', path: '/image-gen/bulk-job/:id/products/:index/redo' },
  clientConfig: { method: 'GET', path: '/configlist' },
  trackEvent: { method: 'POST', path: '/pst' },
} as const satisfies Record<string, RoutePath>;

export type RoutePathId = keyof typeof routePaths;

type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values a path's `:params` need, e.g. `{ generation_uuid }` for `/image-gen/status/:generation_uuid`. */
export type PathParams<Path extends string> = string extends Path
  ? Record<string, unknown>
  : Record<ParamNames<Path>, string | number>;

/** `/image-gen/status/:generation_uuid` + `{generation_uuid: 'g1'}` → `/image-gen/status/g1`; a missing parameter is a programming error. */
export function fillPath<Path extends string>(path: Path, params?: PathParams<Path>): string {
  const values: Record<string, unknown> = params ?? {};
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') {
      throw new TypeError(`Path ${path} needs the parameter ${name}`);
    }
    return encodeURIComponent(String(value));
  });
}
