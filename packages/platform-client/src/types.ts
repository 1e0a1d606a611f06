// Payload types of the calls in SPEC §7 / DESIGN §8, taken from the contracts the services answer by (the zod
// schemas' inferred types, so the browser and the services cannot drift apart). Type-only imports: nothing of the
// contracts' validators reaches the bundle. The names are the ones the microfrontends have always imported.
import type {
  routes,
  RouteBodyInput,
  RouteResponse,
  AnalysisResult,
  AuthSession,
  GenerationStarted,
  GenerationStatusResponse,
  GenerationStatusValue,
  PageViewData,
  StylePresetSave,
} from '@productgen/contracts';

type Routes = typeof routes;
/** What a successful call of a route answers, as the contracts declare it. */
export type Answer<Id extends keyof Routes> = RouteResponse<Routes[Id]>;
/** What a call of a route sends (input types, before the server's defaults and trimming). */
export type Body<Id extends keyof Routes> = RouteBodyInput<Routes[Id]>;

export type {
  AnalysisCorrection,
  BulkCheckProduct,
  BulkJob,
  BulkJobCounts,
  BulkJobProduct,
  BulkJobStatus,
  BulkJobSummary,
  Category,
  CategoryId,
  CheckoutSession,
  ClientConfig,
  CreditRecord,
  Cutout,
  GeneratedImage,
  Generation,
  PackageId,
  PaymentRecord,
  RecordItem,
  RefundRequest,
  ShopContextEntry,
  StylePreset,
  StylePresetList,
  User,
} from '@productgen/contracts';

/** Sign-in as a browser gets it: the key went into the API's HttpOnly cookie, not into the answer. */
export type SignInResponse = Omit<AuthSession, 'session_key'>;
export type ImageAnalysis = AnalysisResult;
export type ImageGenResponse = GenerationStarted;
export type GenerationState = GenerationStatusValue;
export type GenerationStatus = GenerationStatusResponse;
export type NewStylePreset = StylePresetSave;
export type PaymentSuccessCheck = Answer<'checkPaymentSuccess'>;
export type PageViewPayload = PageViewData;
export type TrackResult = Answer<'trackEvent'>;

/** A page of a list (`{items, total}`, the contracts' pageOf). */
export interface Page<T> {
  items: T[];
  total: number;
}

/** What `downloadUrl` builds a link to: one image, a generation's zip, a batch's zip. */
export type DownloadType = 'image' | 'batch' | 'bulk';
