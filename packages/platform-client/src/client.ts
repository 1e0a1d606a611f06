import { defaultFetch, defaultStorage, xhrUpload, type KeyValueStorage, type UploadImpl } from './browser-env';
import { ApiError } from './errors';
import { PlatformEvents } from './events';
import { buildPageViewPayload } from './page-view';
import { captureReferralFromUrl, readReferralCode } from './referral';
import { SessionHint } from './session-key';
import { SessionStore } from './session-store';
import { Transport, interpretResponse, isRecord } from './transport';
import type {
  Answer,
  Body,
  BulkJobStatus,
  DownloadType,
  NewStylePreset,
  PackageId,
  SignInResponse,
  TrackResult,
  User,
} from './types';

export interface PlatformClientOptions {
  /** Absolute address of the API origin, e.g. https://api.productgen.example or http://localhost:8080. */
  apiBaseUrl: string;
  storage?: KeyValueStorage;
  fetchImpl?: typeof fetch;
  /** Sends request bodies whose progress is reported (the batch zip); XMLHttpRequest by default. */
  uploadImpl?: UploadImpl;
  /** Brand name; the referral cookie is `{lowercased name}_ref_code`. */
  productName?: string;
  /** Where swallowed failures (referral-form check) are reported. */
  logger?: Pick<Console, 'warn'>;
}

export interface SignInCredentials {
  /** An ID-token credential from the identity provider. */
  credential?: string | null;
  /** An access token from the provider's token flow (scope openid profile email). */
  access_token?: string | null;
}

const SIGN_IN_PROVIDER = 'Google';
// SPEC §5: referral text and preset names are cut to 255 characters before sending.
const MAX_TEXT_LENGTH = 255;
const DEFAULT_PAGE_SIZE = 10;

export type PlatformClient = ReturnType<typeof createPlatformClient>;

export function createPlatformClient(options: PlatformClientOptions) {
  const {
    apiBaseUrl,
    storage = defaultStorage(),
    fetchImpl = defaultFetch(),
    uploadImpl = xhrUpload,
    productName = 'ProductGen',
    logger = console,
  } = options;

  const events = new PlatformEvents();
  const hint = new SessionHint(storage);
  const http = new Transport(apiBaseUrl, hint, events, fetchImpl, uploadImpl);

  /** GET /auth/me: the user, or false on 401 (which does not end the session). No auth-fetched event. */
  async function me(): Promise<User | false> {
    const raw = await http.send('authMe', { emitFetched: false });
    if (raw.status === 401) return false;
    return interpretResponse<User>(raw);
  }

  const session = new SessionStore(me, hint, events);

  async function signIn({ credential = null, access_token = null }: SignInCredentials): Promise<SignInResponse> {
    if (!credential && !access_token) throw new TypeError('signIn needs a credential or an access_token');
    const failure = `Failed to verify ${SIGN_IN_PROVIDER} token`;
    const raw = await http.send('authGoogle', {
      body: { credential, access_token, ref_code: readReferralCode(productName) },
    });
    try {
      if (!raw.ok) throw new ApiError(raw.status, failure);
      // The API set the session cookie; a browser's answer carries the user, not the key.
      const answer = interpretResponse<SignInResponse>(raw);
      if (!isRecord(answer) || !isRecord(answer.user)) throw new ApiError(raw.status, failure);
      hint.set();
      events.emit('auth-refresh');
      return answer;
    } finally {
      events.emit('auth-fetched');
    }
  }

  /** POST /auth/logout (the API revokes the key and clears its cookie), then forget the hint whatever it said. */
  async function logout(): Promise<void> {
    try {
      await http.call('authLogout');
    } catch {
      // The key may already be expired or the API unreachable; signing out locally is what matters.
    } finally {
      hint.clear();
      events.emit('auth-refresh');
    }
  }

  async function hearAboutSource(source: string): Promise<void> {
    const trimmed = source.trim().slice(0, MAX_TEXT_LENGTH);
    if (!trimmed) throw new TypeError('A referral source is required');
    await http.call('saveReferralSource', {
      body: { source: trimmed },
      failureMessage: 'Failed to save hear about source',
    });
  }

  /** Whether the referral survey was already answered; false on any failure (reported to the logger). */
  async function hasSeenHearAboutSource(): Promise<boolean> {
    try {
      // Read as unknown and checked: anything but `hasSeen: true` counts as not seen.
      const answer: unknown = await http.call('hasSeenReferralForm', {
        failureMessage: 'Failed to check referral form status',
      });
      return isRecord(answer) && answer.hasSeen === true;
    } catch (error) {
      logger.warn('Failed to check referral form status', error);
      return false;
    }
  }

  /**
   * POST /image-gen/bulk-zip (SPEC §5): the zip as images.zip, the per-product count, and the presets only when some
   * are chosen. With onUploadProgress the body goes out through the upload channel, which reports the share sent.
   */
  async function bulkZip({
    zip,
    numGenerates,
    presets = [],
    checkUncertain = true,
    onUploadProgress,
  }: {
    zip: Blob;
    numGenerates: number;
    presets?: string[];
    /** "Check uncertain products before rendering" (on unless turned off). */
    checkUncertain?: boolean;
    onUploadProgress?: (fraction: number) => void;
  }) {
    assertGenerateCount(numGenerates);
    // The fields before the zip: the API knows the per-product count while the zip streams in (refusing early).
    const form = new FormData();
    form.append('numGenerates', String(numGenerates));
    if (presets.length > 0) form.append('presets', JSON.stringify(presets));
    form.append('checkUncertain', String(checkUncertain));
    form.append('zipFile', zip, 'images.zip');
    return http.call('createBulkJob', {
      body: form,
      onUploadProgress,
    });
  }

  async function trackEvent(en: string, data: unknown = {}): Promise<TrackResult> {
    try {
      // Read as unknown and checked: an answer without `success` still counts as sent.
      const answer: unknown = await http.call('trackEvent', { body: { en, do: data } });
      return isRecord(answer) && typeof answer.success === 'boolean' ? (answer as TrackResult) : { success: true };
    } catch {
      // Analytics must never disturb the page.
      return { success: false };
    }
  }

  /** Download addresses are links for the browser to follow, never fetched by the client. */
  function downloadUrl(type: DownloadType, id: string, imageIndex?: number): string {
    if (!id) throw new TypeError('A download needs an id');
    switch (type) {
      case 'image':
        if (imageIndex === undefined || imageIndex === null) {
          throw new TypeError('imageIndex is required for image type download');
        }
        if (!Number.isInteger(imageIndex) || imageIndex < -1) {
          throw new RangeError(`imageIndex must be an integer of at least -1 (the original), got ${imageIndex}`);
        }
        return http.routeUrl('downloadImage', { id, index: imageIndex });
      case 'batch':
        return http.routeUrl('downloadGeneration', { id });
      case 'bulk':
        return http.routeUrl('downloadBulkJob', { id });
      default:
        throw new TypeError(`Unknown download type ${JSON.stringify(type)}`);
    }
  }

  /**
   * The address the browser loads an image or file from. The API gives paths on its own origin (an image's
   * output_url such as /download/... or /image-gen/...) or absolute presigned URLs; anything else (other schemes,
   * protocol-relative or page-relative addresses) is refused rather than loaded from somewhere unexpected.
   */
  function assetUrl(address: string): string {
    if (typeof address !== 'string' || !address.trim()) throw new TypeError('An asset address must not be empty');
    if (/^https?:\/\//i.test(address)) {
      try {
        new URL(address);
      } catch {
        throw new TypeError(`Not a valid asset URL: ${JSON.stringify(address)}`);
      }
      return address;
    }
    // "//host" (and "/\host", which browsers read the same way) names another host, not a path on the API.
    if (address.startsWith('/') && !/^\/[/\\]/.test(address)) return http.url(address);
    throw new TypeError(
      `An asset address must be a path on the API ("/download/...") or an absolute http(s) URL, got ${JSON.stringify(address)}`,
    );
  }

  return {
    events,
    session,
    /** Whether this browser signed in (until the current-user check says otherwise); the cookie is not readable. */
    isSignedIn: () => hint.isSignedIn(),
    /** Forgets the session locally and tells every listener. */
    endSession: () => http.endSession(),
    /** Asks every microfrontend to refetch the user (e.g. after credits changed). */
    refreshUser: () => events.emit('auth-refresh'),
    captureReferralFromUrl: (url: string = window.location.href) => captureReferralFromUrl(productName, url),
    referralCode: () => readReferralCode(productName),

    signIn,
    me,
    logout,
    configList: () => http.call('clientConfig'),

    imageGen: async (body: Body<'imageGen'>) => {
      assertGenerateCount(body.numGenerates);
      return http.call('imageGen', { body });
    },
    imageGenFromId: async (body: Body<'imageGenFromId'>) => {
      assertGenerateCount(body.numGenerates);
      return http.call('imageGenFromId', { body });
    },
    /** Cut-out, name and category of a photo; its file name, when given, helps name and file it. */
    analyseImage: (image: string, filename?: string) =>
      http.call('analyzeImage', { body: { image: stripDataUrlPrefix(image), ...(filename ? { filename } : {}) } }),
    /** The analysed photo's cut-out mask, for the seller's brush. */
    cutout: (generationUuid: string) => http.call('getCutout', { params: { generation_uuid: generationUuid } }),
    /** Saves the seller's corrected mask (a PNG, base64 or data URL) before Create. */
    saveCutout: (generationUuid: string, mask: string) =>
      http.call('saveCutout', {
        params: { generation_uuid: generationUuid },
        body: { mask: stripDataUrlPrefix(mask) },
      }),
    /** Saves the seller's product name and category before Create. */
    correctAnalysis: (generationUuid: string, correction: Body<'correctAnalysis'>) =>
      http.call('correctAnalysis', { params: { generation_uuid: generationUuid }, body: correction }),
    categories: () => http.call('listCategories'),
    generationStatus: (generationUuid: string) =>
      http.call('generationStatus', { params: { generation_uuid: generationUuid } }),
    generations: async (page = 1, pageSize = DEFAULT_PAGE_SIZE) =>
      http.call('listGenerations', { query: pageQuery(page, pageSize) }),
    generatedDetail: (id: string) => http.call('generationDetail', { params: { id } }),
    records: async () => (await http.call('listRecords')).records,

    stylePresets: () => http.call('listStylePresets'),
    stylePresetsForCategory: (categoryId: string) => http.call('listStylePresets', { query: { category: categoryId } }),
    stylePreset: (id: string) => http.call('getStylePreset', { params: { id } }),
    saveStylePreset: async (preset: NewStylePreset) => {
      const presetName = preset.preset_name.trim().slice(0, MAX_TEXT_LENGTH);
      if (!presetName) throw new TypeError('A preset name is required');
      return http.call('createStylePreset', { body: { ...preset, preset_name: presetName } });
    },

    bulkZip,
    bulkJob: (id: string) => http.call('getBulkJob', { params: { id } }),
    /** A batch's products waiting for the seller's check ("Needs your check"). */
    bulkChecks: (id: string) => http.call('listBulkChecks', { params: { id } }),
    /** Looks right, Render anyway, or a fix (the brush's mask as a PNG, base64 or data URL; name; category). */
    decideBulkCheck: (id: string, index: number, decision: Body<'decideBulkCheck'>) =>
      http.call('decideBulkCheck', {
        params: { id, index },
        body: decision.mask === undefined ? decision : { ...decision, mask: stripDataUrlPrefix(decision.mask) },
      }),
    /** Makes a finished batch product again, corrected or not (the mask as a PNG, base64 or data URL). */
    redoBulkProduct: (id: string, index: number, redo: Body<'redoBulkProduct'>) =>
      http.call('redoBulkProduct', {
        params: { id, index },
        body: redo.mask === undefined ? redo : { ...redo, mask: stripDataUrlPrefix(redo.mask) },
      }),
    /** Removes a product waiting for check from its batch; its credits come back at once. */
    removeBulkProduct: (id: string, index: number) => http.call('removeBulkProduct', { params: { id, index } }),
    /** GET /image-gen/bulk-jobs answers `{jobs}`, newest first; statuses filter it (comma-joined). */
    bulkJobs: async (statuses: BulkJobStatus[] = []) => {
      const answer: unknown = await http.call('listBulkJobs', {
        query: { statuses: statuses.length > 0 ? statuses.join(',') : undefined },
        failureMessage: 'Failed to list bulk jobs',
      });
      if (!isRecord(answer) || !Array.isArray(answer.jobs)) throw new ApiError(500, 'Failed to list bulk jobs');
      return answer.jobs as Answer<'listBulkJobs'>['jobs'];
    },

    createCheckoutSession: (packageId: PackageId) =>
      http.call('createCheckoutSession', { body: { package: packageId } }),
    checkPaymentSuccess: (sessionId?: string) => http.call('checkPaymentSuccess', { body: { sessionId } }),
    paymentRecords: () => http.call('paymentRecords'),
    creditLog: async (page = 1, pageSize = DEFAULT_PAGE_SIZE) =>
      http.call('creditLog', { query: pageQuery(page, pageSize) }),
    refund: (request: Body<'requestRefund'>) => http.call('requestRefund', { body: request }),

    saveSettings: (settings: Body<'saveUserSettings'>) => http.call('saveUserSettings', { body: settings }),
    saveSettingsMetadata: (metadata: Body<'saveUserMetadata'>) => http.call('saveUserMetadata', { body: metadata }),
    closeTooltip: (name: string) => http.call('closeTooltip', { body: { name } }),
    hearAboutSource,
    hasSeenHearAboutSource,

    trackEvent,
    trackPageView: () => trackEvent('page_view', buildPageViewPayload()),
    downloadUrl,
    assetUrl,
  };
}

function stripDataUrlPrefix(image: string): string {
  return image.replace(/^data:[^,]*;base64,/, '');
}

function assertGenerateCount(numGenerates: number): void {
  // SPEC §5: 1 to 5 images per generation.
  if (!Number.isInteger(numGenerates) || numGenerates < 1 || numGenerates > 5) {
    throw new RangeError(`numGenerates must be an integer from 1 to 5, got ${numGenerates}`);
  }
}

function pageQuery(page: number, pageSize: number) {
  if (!Number.isInteger(page) || page < 1) throw new RangeError(`page must be a positive integer, got ${page}`);
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
  }
  return { page, pageSize };
}
