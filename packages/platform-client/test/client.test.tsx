import {
  ApiError,
  createPlatformClient,
  SESSION_KEY_NAME,
  SIGNED_IN_HINT_NAME,
  type PlatformClientOptions,
} from '@productgen/platform-client';
import { clearAllCookies, cookieValue, fakeFetch, type Reply } from '@productgen/platform-client/test-support';

const REMOTE_API = 'https://api.productgen.test';
const LOCAL_API = 'http://localhost:8080';
const silentLogger = { warn: jest.fn() };

function setup(routes: Parameters<typeof fakeFetch>[0], options: Partial<PlatformClientOptions> = {}) {
  const fake = fakeFetch(routes);
  const client = createPlatformClient({
    apiBaseUrl: REMOTE_API,
    fetchImpl: fake.fetchImpl,
    uploadImpl: fake.uploadImpl,
    storage: window.localStorage,
    logger: silentLogger,
    ...options,
  });
  const emitted: string[] = [];
  client.events.on('auth-refresh', () => emitted.push('auth-refresh'));
  client.events.on('auth-fetched', () => emitted.push('auth-fetched'));
  return { client, requests: fake.requests, emitted };
}

/** What a sign-in leaves in the page: the hint only (the key is in the API's HttpOnly cookie, out of reach). */
function signedIn() {
  window.localStorage.setItem(SIGNED_IN_HINT_NAME, 'true');
}

beforeEach(() => {
  clearAllCookies();
  window.localStorage.clear();
  silentLogger.warn.mockClear();
});

describe('request headers', () => {
  it('sends the session cookie (credentials include) and a JSON content type, never a key header', async () => {
    signedIn();
    const { client, requests } = setup({ 'POST /user/settings/close-tooltip': { body: { success: true } } });

    await client.closeTooltip('enter_site_url');

    expect(requests[0]?.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(requests[0]?.credentials).toBe('include');
    expect(requests[0]?.json).toEqual({ name: 'enter_site_url' });
    expect(requests[0]?.url.href).toBe(`${REMOTE_API}/user/settings/close-tooltip`);
  });

  it.each([LOCAL_API, REMOTE_API])('sends no key header to %s when signed out either', async (apiBaseUrl) => {
    const { client, requests } = setup(
      { 'GET /image-gen/categories': { body: [{ id: 'shoes', name: 'Shoes' }] } },
      { apiBaseUrl },
    );

    await expect(client.categories()).resolves.toEqual([{ id: 'shoes', name: 'Shoes' }]);
    expect(requests[0]?.headers).not.toHaveProperty('X-Session-Key');
    expect(requests[0]?.credentials).toBe('include');
  });

  it('forgets a key an older version kept where page scripts could read it', () => {
    document.cookie = `${SESSION_KEY_NAME}=old-key; path=/`;
    window.localStorage.setItem(SESSION_KEY_NAME, 'old-key');

    setup({});

    expect(cookieValue(SESSION_KEY_NAME)).toBeUndefined();
    expect(window.localStorage.getItem(SESSION_KEY_NAME)).toBeNull();
  });

  it('sends multipart form data without a JSON content type for a bulk zip', async () => {
    signedIn();
    const { client, requests } = setup({ 'POST /image-gen/bulk-zip': { body: { bulk_job_uuid: 'job-1' } } });
    const zip = new Blob([new Uint8Array([0x50, 0x4b, 0x03, 0x04])], { type: 'application/zip' });

    await expect(client.bulkZip({ zip, numGenerates: 3 })).resolves.toEqual({ bulk_job_uuid: 'job-1' });

    const request = requests[0]!;
    expect(request.headers).toEqual({});
    expect(request.credentials).toBe('include');
    expect(request.body).toBeInstanceOf(FormData);
    const form = request.body as FormData;
    expect((form.get('zipFile') as File).name).toBe('images.zip');
    expect(form.get('numGenerates')).toBe('3');
    expect(form.has('presets')).toBe(false);
  });

  it('adds the presets to a bulk zip only when there are some', async () => {
    const { client, requests } = setup({ 'POST /image-gen/bulk-zip': { body: { bulk_job_uuid: 'job-2' } } });

    await client.bulkZip({ zip: new Blob(['zip']), numGenerates: 1, presets: ['p1', 'p2'] });

    expect((requests[0]?.body as FormData).get('presets')).toBe('["p1","p2"]');
  });

  it('sends a bulk zip through the upload channel when progress is asked for, and reports the share sent', async () => {
    signedIn();
    const { client, requests } = setup({ 'POST /image-gen/bulk-zip': { body: { bulk_job_uuid: 'job-3' } } });
    const shares: number[] = [];

    const answer = await client.bulkZip({
      zip: new Blob(['zip']),
      numGenerates: 2,
      onUploadProgress: (share) => shares.push(share),
    });

    expect(answer).toEqual({ bulk_job_uuid: 'job-3' });
    expect(shares).toEqual([0.5, 1]);
    expect(requests[0]?.headers).toEqual({});
    expect(requests[0]?.credentials).toBe('include');
    expect((requests[0]?.body as FormData).get('numGenerates')).toBe('2');
  });

  it('applies the error rules to an upload-channel answer: the error field is thrown, 401 ends the session', async () => {
    signedIn();
    const { client, emitted } = setup({
      'POST /image-gen/bulk-zip': [
        { status: 402, body: { code: 402, error: 'Not enough credits' } },
        { status: 401, body: { error: 'Unauthorized' } },
      ],
    });
    const upload = () => client.bulkZip({ zip: new Blob(['zip']), numGenerates: 1, onUploadProgress: () => {} });

    await expect(upload()).rejects.toMatchObject({ code: 402, error: 'Not enough credits' });
    await expect(upload()).rejects.toMatchObject({ code: 401, error: 'Unauthorized' });
    expect(client.isSignedIn()).toBe(false);
    expect(emitted).toContain('auth-refresh');
  });

  it('refuses an out-of-range image count before calling the API', async () => {
    const { client, requests } = setup({});

    await expect(client.imageGen({ base64str: 'abc', numGenerates: 6 })).rejects.toThrow(
      'numGenerates must be an integer from 1 to 5, got 6',
    );
    expect(requests).toHaveLength(0);
  });

  it('refuses an API address that is not an absolute http(s) URL', () => {
    expect(() => createPlatformClient({ apiBaseUrl: '/api' })).toThrow('apiBaseUrl must be an absolute http(s) URL');
    expect(() => createPlatformClient({ apiBaseUrl: 'ftp://x.test' })).toThrow('apiBaseUrl must use http or https');
  });
});

describe('401 and error handling', () => {
  it('ends the session on a 401 and throws Unauthorized', async () => {
    signedIn();
    const { client, emitted } = setup({ 'GET /records': { status: 401, body: { code: 401, error: 'Unauthorized' } } });

    const failure = client.records();

    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ code: 401, error: 'Unauthorized' });
    expect(window.localStorage.getItem(SIGNED_IN_HINT_NAME)).toBeNull();
    expect(client.isSignedIn()).toBe(false);
    expect(emitted).toEqual(['auth-refresh', 'auth-fetched']);
  });

  it('treats a 401 from the current-user check as signed out without ending the session or emitting', async () => {
    signedIn();
    const { client, emitted } = setup({ 'GET /auth/me': { status: 401 } });

    await expect(client.me()).resolves.toBe(false);
    expect(client.isSignedIn()).toBe(true);
    expect(emitted).toEqual([]);
  });

  it('returns the user from the current-user check and throws its error field', async () => {
    const user = { name: 'Ada', email: 'ada@example.test', credits: 7 };
    const ok = setup({ 'GET /auth/me': { body: user } });
    await expect(ok.client.me()).resolves.toEqual(user);
    expect(ok.emitted).toEqual([]);

    const broken = setup({ 'GET /auth/me': { status: 500, body: { error: 'Database down' } } });
    await expect(broken.client.me()).rejects.toMatchObject({ code: 500, error: 'Database down' });
  });

  it('throws a response carrying a code or error field even with status 200', async () => {
    const { client, emitted } = setup({
      'POST /imageGen': { body: { code: 402, error: 'Not enough credits' } },
      'GET /style-presets': { body: { success: false, presets: [], error: 'Presets unavailable' } },
    });

    await expect(client.imageGen({ base64str: 'abc', numGenerates: 2 })).rejects.toMatchObject({
      code: 402,
      error: 'Not enough credits',
      message: 'Not enough credits',
    });
    await expect(client.stylePresets()).rejects.toMatchObject({ code: 200, error: 'Presets unavailable' });
    expect(emitted).toEqual(['auth-fetched', 'auth-fetched']);
  });

  it('names the failure of the calls SPEC §8 gives a message to', async () => {
    const { client } = setup({
      'GET /image-gen/bulk-jobs': { status: 503 },
      'POST /hear-about-source': { status: 500 },
      'GET /hear-about-source/has-seen': { status: 500 },
    });

    await expect(client.bulkJobs(['pending'])).rejects.toMatchObject({ code: 503, error: 'Failed to list bulk jobs' });
    await expect(client.hearAboutSource('Friend or Colleague')).rejects.toMatchObject({
      error: 'Failed to save hear about source',
    });
    await expect(client.hasSeenHearAboutSource()).resolves.toBe(false);
    expect(silentLogger.warn).toHaveBeenCalledWith('Failed to check referral form status', expect.any(ApiError));
  });

  it('reads hasSeen from the referral-form check', async () => {
    const { client } = setup({ 'GET /hear-about-source/has-seen': { body: { hasSeen: true } } });
    await expect(client.hasSeenHearAboutSource()).resolves.toBe(true);
  });

  it('returns {success:false} silently when analytics fail', async () => {
    const { client } = setup({ 'POST /pst': { status: 500, body: { error: 'boom' } } });
    await expect(client.trackEvent('Clicked', { button: 'create' })).resolves.toEqual({ success: false });

    const offline = createPlatformClient({
      apiBaseUrl: REMOTE_API,
      fetchImpl: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(offline.trackEvent('Clicked')).resolves.toEqual({ success: false });
  });
});

describe('calls and payloads', () => {
  it('builds the paths and queries of the listing calls', async () => {
    const page: Reply = { body: { items: [], total: 0 } };
    const { client, requests } = setup({
      'GET /image-gen/bulk-jobs': { body: { jobs: [] } },
      'GET /image-gen/generations': page,
      'GET /credits/log': page,
      'GET /style-presets': { body: { success: true, presets: [] } },
      'GET /image-gen/status/gen%201': {
        body: { analyzed: true, images: [], status: 'completed', has_watermark: false },
      },
    });

    await expect(client.bulkJobs(['pending', 'processing'])).resolves.toEqual([]);
    await client.bulkJobs();
    await client.generations(2, 10);
    await client.creditLog();
    await client.stylePresetsForCategory('shoes');
    await client.generationStatus('gen 1');

    expect(requests.map((r) => r.url.pathname + r.url.search)).toEqual([
      '/image-gen/bulk-jobs?statuses=pending%2Cprocessing',
      '/image-gen/bulk-jobs',
      '/image-gen/generations?page=2&pageSize=10',
      '/credits/log?page=1&pageSize=10',
      '/style-presets?category=shoes',
      '/image-gen/status/gen%201',
    ]);
    await expect(client.generations(0)).rejects.toThrow('page must be a positive integer, got 0');
  });

  it("sends the calls on one item with the contracts' method and path, the id encoded", async () => {
    const cutout = { generation_uuid: 'g 1', mask: 'AA==', width: 1, height: 1, confidence: 1 };
    const { client, requests } = setup({
      'GET /image-gen/cutout/g%201': { body: cutout },
      'PUT /image-gen/cutout/g%201': { body: cutout },
      'PATCH /image-gen/analysis/g%201': { body: { category: 'kitchen', object: 'mug', generation_uuid: 'g 1' } },
      'GET /image-gen/generated/g%201': { body: { id: 'x' } },
      'GET /style-presets/p%2F1': { body: { id: 'p/1' } },
      'GET /image-gen/bulk-job/j%201': { body: { bulk_job_uuid: 'j 1' } },
    });

    await client.cutout('g 1');
    await client.saveCutout('g 1', 'data:image/png;base64,AA==');
    await client.correctAnalysis('g 1', { category: 'kitchen' });
    await client.generatedDetail('g 1');
    await client.stylePreset('p/1');
    await client.bulkJob('j 1');

    expect(requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      'GET /image-gen/cutout/g%201',
      'PUT /image-gen/cutout/g%201',
      'PATCH /image-gen/analysis/g%201',
      'GET /image-gen/generated/g%201',
      'GET /style-presets/p%2F1',
      'GET /image-gen/bulk-job/j%201',
    ]);
    expect(requests[1]?.json).toEqual({ mask: 'AA==' });
    expect(requests[2]?.json).toEqual({ category: 'kitchen' });
  });

  it('strips the data-URL prefix before analysing an image', async () => {
    const analysis = { category: 'shoes', object: 'sneaker', generation_uuid: 'g-1' };
    const { client, requests } = setup({ 'POST /image-gen/category': { body: analysis } });

    await expect(client.analyseImage('data:image/jpeg;base64,AAAA')).resolves.toEqual(analysis);
    expect(requests[0]?.json).toEqual({ image: 'AAAA' });
  });

  it('trims and cuts a preset name to 255 characters and refuses a blank one', async () => {
    const { client, requests } = setup({ 'POST /style-presets': { body: { id: 'p1', preset_name: 'x' } } });

    await client.saveStylePreset({ generation_uuid: 'g', image_index: 0, preset_name: `  ${'n'.repeat(300)}  ` });
    expect((requests[0]?.json as { preset_name: string }).preset_name).toBe('n'.repeat(255));
    await expect(client.saveStylePreset({ generation_uuid: 'g', image_index: 0, preset_name: '   ' })).rejects.toThrow(
      'A preset name is required',
    );
  });

  it('returns the records field of /records and the checkout session', async () => {
    const { client, requests } = setup({
      'GET /records': { body: { records: [{ id: 'r1' }] } },
      'POST /payments/create-checkout-session': { body: { sessionId: 'cs_1' } },
    });

    await expect(client.records()).resolves.toEqual([{ id: 'r1' }]);
    await expect(client.createCheckoutSession(2)).resolves.toEqual({ sessionId: 'cs_1' });
    expect(requests[1]?.json).toEqual({ package: 2 });
  });

  it('sends a page view with path, full path, referrer, user agent, time and viewport', async () => {
    window.history.pushState({}, '', '/pricing?plan=pro#tiers');
    const { client, requests } = setup({ 'POST /pst': { body: { success: true } } });

    await expect(client.trackPageView()).resolves.toEqual({ success: true });

    const sent = requests[0]?.json as { en: string; do: Record<string, unknown> };
    expect(sent.en).toBe('page_view');
    expect(sent.do).toEqual({
      path: '/pricing',
      full_path: '/pricing?plan=pro#tiers',
      referrer: document.referrer,
      user_agent: navigator.userAgent,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      viewport_width: window.innerWidth,
      viewport_height: window.innerHeight,
    });
    expect(sent.do.user_agent).toContain('jsdom');
  });
});

describe('sign-in, referral and sign-out', () => {
  it('stores the ref query parameter in the productgen_ref_code cookie and sends it at sign-in', async () => {
    const { client, requests, emitted } = setup({ 'POST /auth/google': { body: { user: { name: 'Ada' } } } });

    expect(client.captureReferralFromUrl('https://productgen.test/?ref=FRIEND42&utm=x')).toBe('FRIEND42');
    expect(cookieValue('productgen_ref_code')).toBe('FRIEND42');

    await client.signIn({ credential: 'id-token' });

    expect(requests[0]?.json).toEqual({ credential: 'id-token', access_token: null, ref_code: 'FRIEND42' });
    expect(requests[0]?.headers).not.toHaveProperty('X-Session-Key');
    expect(requests[0]?.credentials).toBe('include');
    // The key stays in the API's HttpOnly cookie: nothing of it in the page's cookies or storage.
    expect(cookieValue(SESSION_KEY_NAME)).toBeUndefined();
    expect(window.localStorage.getItem(SESSION_KEY_NAME)).toBeNull();
    expect(client.isSignedIn()).toBe(true);
    expect(emitted).toEqual(['auth-refresh', 'auth-fetched']);
  });

  it('sends ref_code null without a referral and ignores a URL without ref', async () => {
    const { client, requests } = setup(
      { 'POST /auth/google': { body: { user: { name: 'Ada' } } } },
      { productName: 'Acme Studio', apiBaseUrl: LOCAL_API },
    );

    expect(client.captureReferralFromUrl('https://acme.test/pricing')).toBeNull();
    await client.signIn({ access_token: 'ya29.token' });

    expect(requests[0]?.json).toEqual({ credential: null, access_token: 'ya29.token', ref_code: null });
    expect(requests[0]?.headers).not.toHaveProperty('X-Session-Key');
    client.captureReferralFromUrl('https://acme.test/?ref=abc');
    expect(cookieValue('acmestudio_ref_code')).toBe('abc');
  });

  it('throws "Failed to verify Google token" on a non-OK sign-in and keeps the user signed out', async () => {
    const { client } = setup({ 'POST /auth/google': { status: 401, body: { code: 401, error: 'bad token' } } });

    await expect(client.signIn({ credential: 'forged' })).rejects.toMatchObject({
      code: 401,
      error: 'Failed to verify Google token',
    });
    expect(client.isSignedIn()).toBe(false);
    await expect(client.signIn({})).rejects.toThrow('signIn needs a credential or an access_token');
  });

  it('logs out on the server (which clears the cookie) and forgets the session even when the call fails', async () => {
    signedIn();
    const { client, requests, emitted } = setup({ 'POST /auth/logout': { status: 500 } });

    await client.logout();

    expect(requests[0]?.url.pathname).toBe('/auth/logout');
    expect(requests[0]?.credentials).toBe('include');
    expect(client.isSignedIn()).toBe(false);
    expect(emitted).toContain('auth-refresh');
  });
});

describe('download addresses', () => {
  const { client, requests } = setup({});

  it('builds image, batch and bulk addresses without fetching them', () => {
    expect(client.downloadUrl('image', 'gen-1', 2)).toBe(`${REMOTE_API}/download/gen-1/image/2`);
    expect(client.downloadUrl('image', 'gen-1', -1)).toBe(`${REMOTE_API}/download/gen-1/image/-1`);
    expect(client.downloadUrl('batch', 'gen-1')).toBe(`${REMOTE_API}/download/gen-1/batch`);
    expect(client.downloadUrl('bulk', 'job/1')).toBe(`${REMOTE_API}/download/bulk/job%2F1`);
    expect(requests).toHaveLength(0);
  });

  it('requires a valid image index for an image download', () => {
    expect(() => client.downloadUrl('image', 'gen-1')).toThrow('imageIndex is required for image type download');
    expect(() => client.downloadUrl('image', 'gen-1', -2)).toThrow('imageIndex must be an integer of at least -1');
  });
});

describe('asset addresses', () => {
  const { client, requests } = setup({});

  it('puts paths given by the API on the API origin without fetching them', () => {
    expect(client.assetUrl('/download/gen-1/image/0')).toBe(`${REMOTE_API}/download/gen-1/image/0`);
    expect(client.assetUrl('/image-gen/files/a.jpg?v=2')).toBe(`${REMOTE_API}/image-gen/files/a.jpg?v=2`);
    expect(requests).toHaveLength(0);
  });

  it('keeps the path of an API mounted below the origin root', () => {
    const mounted = setup({}, { apiBaseUrl: 'http://127.0.0.1:8080/api/' }).client;
    expect(mounted.assetUrl('/download/gen-1/batch')).toBe('http://127.0.0.1:8080/api/download/gen-1/batch');
  });

  it('passes absolute http(s) addresses (presigned object URLs) through unchanged', () => {
    const presigned = 'https://bucket.s3.example/outputs/a.jpg?X-Amz-Signature=abc%2Fdef';
    expect(client.assetUrl(presigned)).toBe(presigned);
    expect(client.assetUrl('HTTP://localhost:9000/a.png')).toBe('HTTP://localhost:9000/a.png');
  });

  it.each([
    ['', 'must not be empty'],
    ['   ', 'must not be empty'],
    ['files/a.jpg', 'must be a path on the API'],
    ['//evil.example/a.jpg', 'must be a path on the API'],
    ['/\\evil.example/a.jpg', 'must be a path on the API'],
    ['javascript:alert(1)', 'must be a path on the API'],
    ['data:image/png;base64,AAAA', 'must be a path on the API'],
    ['ftp://files.example/a.jpg', 'must be a path on the API'],
    ['https://', 'Not a valid asset URL'],
  ])('refuses %j', (address, message) => {
    expect(() => client.assetUrl(address)).toThrow(message);
  });
});
