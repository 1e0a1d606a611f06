import { TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { routes } from '@productgen/contracts';
import { ConfigError } from '@productgen/service-kit';
import { listenPort, loadGatewayConfig } from '../src';
import { AnalyticsLog, OTHER_BUCKET } from '../src/domain/analytics';
import { escapeHtml } from '../src/domain/docs-page';
import { ipBucket, secondsUntil, tooManyRequestsMessage } from '../src/domain/rate-limit-keys';
import { allowHeader, bodyPolicy, formatBytes, servedRoutes, validationView } from '../src/domain/routing';
import { isStateChangeFromAllowedPage } from '../src/domain/browser-session';
import { presentedSession, SessionCache } from '../src/domain/session';

describe('SessionCache', () => {
  function cacheAt(clock: { now: number }, ttlMs = 5000, maxEntries = 100) {
    return new SessionCache({ ttlMs, maxEntries, revocationWindowMs: 10_000, now: () => clock.now });
  }

  it('trusts a key for the TTL only', () => {
    const clock = { now: 1000 };
    const cache = cacheAt(clock);
    cache.set('key', 'user-1', cache.ticket());
    clock.now += 4999;
    expect(cache.get('key')).toBe('user-1');
    clock.now += 1;
    expect(cache.get('key')).toBeUndefined();
  });

  it('does not let a check that started before a logout put the key back', () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    const startedBeforeLogout = cache.ticket();
    cache.evict('key');
    cache.set('key', 'user-1', startedBeforeLogout);
    expect(cache.get('key')).toBeUndefined();
    // A check that started after the logout is believed (auth said yes after the revocation).
    cache.set('key', 'user-1', cache.ticket());
    expect(cache.get('key')).toBe('user-1');
  });

  it('drops the oldest entries beyond its size and caches nothing with a TTL of 0', () => {
    const clock = { now: 0 };
    const small = cacheAt(clock, 5000, 2);
    for (const key of ['a', 'b', 'c']) small.set(key, `user-${key}`, small.ticket());
    expect(small.size).toBe(2);
    expect(small.get('a')).toBeUndefined();
    expect(small.get('c')).toBe('user-c');

    const disabled = cacheAt(clock, 0);
    disabled.set('a', 'user-a', disabled.ticket());
    expect(disabled.get('a')).toBeUndefined();
  });
});

describe('presentedSession', () => {
  it('prefers the header (API clients) and otherwise reads the session cookie (browsers), on every route', () => {
    const cookie = 'a=1; session_key=from-cookie';
    expect(presentedSession({ 'x-session-key': 'from-header', cookie })).toEqual({
      key: 'from-header',
      source: 'header',
    });
    expect(presentedSession({ cookie })).toEqual({ key: 'from-cookie', source: 'cookie' });
    expect(presentedSession({ 'x-session-key': '   ' })).toBeUndefined();
    expect(presentedSession({ 'x-session-key': 'k'.repeat(600) })).toBeUndefined();
    expect(presentedSession({ cookie: 'session_key=' })).toBeUndefined();
  });
});

describe('isStateChangeFromAllowedPage', () => {
  const web = ['http://localhost:3000'];
  const post = (origin: string | undefined, fetchSite: string | undefined, host = 'localhost:8080') =>
    isStateChangeFromAllowedPage({ method: 'POST', origin, fetchSite, host }, web);

  it('lets the web app, the API itself and clients outside a browser change state', () => {
    expect(post('http://localhost:3000', 'same-site')).toBe(true);
    expect(post('http://localhost:8080', 'same-origin')).toBe(true);
    // The web app at the name the user typed, on the configured scheme and port.
    expect(post('http://studio.lan:3000', 'same-site', 'studio.lan:8080')).toBe(true);
    expect(post(undefined, undefined)).toBe(true);
    expect(post(undefined, 'same-origin')).toBe(true);
  });

  it('refuses another site, a sibling of the same site, an opaque origin and a browser saying another site sent it', () => {
    expect(post('https://attacker.example', 'cross-site')).toBe(false);
    expect(post('http://localhost:4000', 'same-site')).toBe(false);
    expect(post('null', 'cross-site')).toBe(false);
    expect(post(undefined, 'cross-site')).toBe(false);
    expect(post(undefined, 'same-site')).toBe(false);
  });

  it('never refuses a read', () => {
    expect(
      isStateChangeFromAllowedPage(
        { method: 'GET', origin: 'https://attacker.example', fetchSite: 'cross-site', host: 'localhost:8080' },
        web,
      ),
    ).toBe(true);
  });
});

describe('routing rules', () => {
  const bodyLimits = { json: 1, image: 2, upload: 3 };

  it('buffers JSON, gives photo routes the image limit and streams multipart and raw bodies', () => {
    expect(bodyPolicy(routes.saveUserSettings, bodyLimits)).toEqual({ kind: 'buffer', limit: 1, parseJson: true });
    expect(bodyPolicy(routes.imageGen, bodyLimits)).toEqual({ kind: 'buffer', limit: 2, parseJson: true });
    expect(bodyPolicy(routes.analyzeImage, bodyLimits)).toEqual({ kind: 'buffer', limit: 2, parseJson: true });
    expect(bodyPolicy(routes.authLogout, bodyLimits)).toEqual({ kind: 'buffer', limit: 1, parseJson: false });
    expect(bodyPolicy(routes.createBulkJob, bodyLimits)).toEqual({ kind: 'stream', limit: 3 });
    expect(bodyPolicy(routes.paymentWebhook, bodyLimits)).toEqual({ kind: 'stream', limit: 1 });
  });

  it('validates a streamed route without its body schema, and keeps other routes as they are', () => {
    expect(validationView(routes.createBulkJob).request?.body).toBeUndefined();
    expect(validationView(routes.paymentWebhook).request?.body).toBeUndefined();
    expect(validationView(routes.paymentWebhook).request?.headers).toBe(routes.paymentWebhook.request.headers);
    expect(validationView(routes.imageGen)).toBe(routes.imageGen);
  });

  it('drops dev-only routes in production only', () => {
    expect(servedRoutes(false).some((route) => route.devOnly)).toBe(true);
    expect(servedRoutes(true).some((route) => route.devOnly)).toBe(false);
  });

  it('formats Allow and byte sizes for people', () => {
    expect(allowHeader(['POST', 'GET'])).toBe('GET, HEAD, POST');
    expect(formatBytes(1024 * 1024)).toBe('1 MiB');
    expect(formatBytes(16 * 1024 * 1024 + 64 * 1024)).toBe('16.1 MiB');
    expect(formatBytes(512)).toBe('512 bytes');
  });
});

describe('rate-limit keys and messages', () => {
  it('groups IPv6 clients by network and keeps IPv4 addresses apart', () => {
    expect(ipBucket('2001:db8:1:1::1')).toBe(ipBucket('2001:db8:1:1::2'));
    expect(ipBucket('192.0.2.1')).not.toBe(ipBucket('192.0.2.2'));
  });

  it('says how long to wait', () => {
    expect(secondsUntil(new Date(10_500), 1000)).toBe(10);
    expect(tooManyRequestsMessage(60, false)).toBe('Too many requests, please slow down and try again in a minute.');
    expect(tooManyRequestsMessage(12, true)).toBe('Too many sign-in attempts. Please wait 12 seconds and try again.');
  });
});

describe('AnalyticsLog', () => {
  it('keeps the last N events and bounds the distinct paths it counts', () => {
    const log = new AnalyticsLog({ recentLimit: 2, maxDistinctKeys: 2 });
    for (const path of ['/a', '/b', '/c', '/a']) log.record({ en: 'page_view', do: { path } }, undefined);
    log.record({ en: 'signup_click', do: { blob: 'x'.repeat(10_000) } }, 'user-1');
    const stats = log.stats();
    expect(stats.total).toBe(5);
    expect(stats.byPath).toEqual({ '/a': 2, '/b': 1, [OTHER_BUCKET]: 1 });
    expect(stats.byEvent).toEqual({ page_view: 4, signup_click: 1 });
    expect(stats.recent.map((event) => event.path)).toEqual(['/a', null]);
    expect(stats.recent[1]?.data).toEqual({ truncated: true, size: expect.any(Number) });
  });

  it('keeps no checkout session id, referral code or token of the addresses an event carries', () => {
    const log = new AnalyticsLog({ recentLimit: 5 });
    const recorded = log.record(
      {
        en: 'page_view',
        do: {
          path: '/dashboard',
          full_path: '/dashboard?payment=success&session_id=cs_live_SECRET1#single',
          referrer: 'https://ads.example/landing?ref=SECRET2&utm_source=ads',
          user_agent: 'jest',
          viewport_width: 1280,
        },
      },
      'user-1',
    );
    expect(recorded.data).toEqual({
      path: '/dashboard',
      full_path: '/dashboard?payment=success&session_id=redacted#single',
      referrer: 'https://ads.example/landing?ref=redacted&utm_source=ads',
      user_agent: 'jest',
      viewport_width: 1280,
    });
    log.record({ en: 'page_view', do: { path: '/?ref=SECRET3' } }, undefined);
    expect(JSON.stringify(log.stats())).not.toMatch(/SECRET/);
    expect(log.stats().byPath).toEqual({ '/dashboard': 1, '/?ref=redacted': 1 });
  });
});

describe('gateway config', () => {
  it('has the documented defaults', () => {
    const config = loadGatewayConfig({ SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET });
    expect(listenPort(config)).toBe(8080);
    expect(config.WEB_ORIGINS).toEqual(['http://localhost:3000', 'http://127.0.0.1:3000']);
    expect(config.REMOTE_ORIGINS).toEqual([]);
    expect(config.JSON_BODY_LIMIT_BYTES).toBe(1024 * 1024);
    expect(config.SESSION_CACHE_TTL_MS).toBe(5000);
    expect(config.TRUST_PROXY).toBe(false);
  });

  it('reads origins, PORT and trust proxy settings', () => {
    const config = loadGatewayConfig({
      SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
      PORT: '9000',
      WEB_ORIGINS: 'https://app.example.com/, https://app.example.com,https://www.example.com',
      TRUST_PROXY: '1',
    });
    expect(listenPort(config)).toBe(9000);
    expect(config.WEB_ORIGINS).toEqual(['https://app.example.com', 'https://www.example.com']);
    expect(config.TRUST_PROXY).toBe(1);
    expect(
      loadGatewayConfig({ SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET, TRUST_PROXY: 'loopback, 10.0.0.0/8' })
        .TRUST_PROXY,
    ).toBe('loopback, 10.0.0.0/8');
  });

  it('names every bad variable', () => {
    let thrown: unknown;
    try {
      loadGatewayConfig({
        SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
        WEB_ORIGINS: 'app.example.com',
        AUTH_URL: 'ftp://auth',
        RATE_LIMIT_PER_IP: '-1',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const variables = (thrown as ConfigError).problems.map((problem) => problem.variable).sort();
    expect(variables).toEqual(['AUTH_URL', 'RATE_LIMIT_PER_IP', 'WEB_ORIGINS']);
    expect((thrown as ConfigError).message).toContain(
      'expected comma-separated origins such as https://app.example.com',
    );
  });
});

describe('escapeHtml', () => {
  it('escapes markup characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
