import { TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { loadConfig } from '@productgen/service-kit';
import { OTHER_CATEGORY_ID, productCategories } from '@productgen/contracts';
import { authConfigSchema, deriveShopProfile, isDevIdpEnabled, shopCategories } from '../src';
import { identityFromClaims, IdentityRejectedError } from '../src/domain/identity';
import {
  MAX_METADATA_BYTES,
  decodeMetadata,
  limitRefusal,
  metadataField,
  planMetadataSave,
} from '../src/domain/metadata';
import {
  generateSessionKey,
  hashSessionKey,
  isSessionActive,
  isWellFormedSessionKey,
  newSessionTimes,
  sessionPolicyFromDays,
  touchedIdleExpiry,
} from '../src/domain/session-keys';

const DAY = 24 * 60 * 60 * 1000;

describe('session keys', () => {
  it('are 256-bit base64url values, different each time, hashed to SHA-256 hex', () => {
    const keys = new Set(Array.from({ length: 100 }, generateSessionKey));
    expect(keys.size).toBe(100);
    for (const key of keys) {
      expect(Buffer.from(key, 'base64url')).toHaveLength(32);
      expect(isWellFormedSessionKey(key)).toBe(true);
    }
    expect(hashSessionKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(isWellFormedSessionKey('local')).toBe(false);
    expect(isWellFormedSessionKey(undefined)).toBe(false);
  });

  it('never lets the idle deadline pass the absolute one', () => {
    const policy = sessionPolicyFromDays(14, 30);
    const start = new Date('2030-01-01T00:00:00Z');
    const times = newSessionTimes(start, policy);
    expect(times.idleExpiresAt.getTime() - start.getTime()).toBe(14 * DAY);
    expect(times.absoluteExpiresAt.getTime() - start.getTime()).toBe(30 * DAY);

    const late = new Date(start.getTime() + 25 * DAY);
    expect(touchedIdleExpiry(times, late, policy)).toEqual(times.absoluteExpiresAt);
    expect(touchedIdleExpiry(times, new Date(start.getTime() + 59_000), policy)).toBeUndefined();
    expect(isSessionActive(times, new Date(start.getTime() + 14 * DAY - 1))).toBe(true);
    expect(isSessionActive(times, new Date(start.getTime() + 14 * DAY))).toBe(false);
  });
});

describe('identity claims', () => {
  it('builds the display name from the parts when the provider sends none, and lower-cases the email', () => {
    expect(
      identityFromClaims('dev', {
        sub: '1',
        email: 'A@B.example',
        email_verified: true,
        given_name: 'Ada',
        family_name: 'L',
      }),
    ).toMatchObject({
      email: 'a@b.example',
      name: 'Ada L',
      picture: '',
    });
  });

  it('refuses an unverified address, one the provider does not vouch for, and claims without an email', () => {
    for (const email_verified of [false, 'false', undefined]) {
      expect(() => identityFromClaims('google', { sub: '1', email: 'a@b.example', email_verified })).toThrow(
        IdentityRejectedError,
      );
    }
    expect(identityFromClaims('google', { sub: '1', email: 'a@b.example', email_verified: 'true' }).email).toBe(
      'a@b.example',
    );
    expect(() => identityFromClaims('google', { sub: '1' })).toThrow(IdentityRejectedError);
  });
});

describe('shop profile from a home page', () => {
  it('picks the categories the page is about and its brand colours', () => {
    const html = `<html><head><title>Lumen Jewelry | Handmade rings &amp; necklaces</title>
      <meta name="keywords" content="jewelry, leather bags, tote">
      <meta property="og:description" content="Fine jewellery and leather handbags">
      <style>a{color:#c0a062} .x{border-color:#C0A062} .y{color:#eee}</style></head>
      <body><h1>New in: necklaces</h1><a href="/bags">Handbags</a><a href="/rings">Rings</a></body></html>`;
    const profile = deriveShopProfile(html);
    expect(profile.shopContext[0]).toEqual({ category_id: 'jewelry', label: 'Jewelry' });
    expect(profile.shopContext.map((entry) => entry.category_id)).toContain('bags');
    expect(profile.brandColors).toEqual(['#c0a062']);
  });

  it('finds nothing in a page without product words, and survives broken HTML', () => {
    expect(deriveShopProfile('<html><title>Welcome</title><body>Hello there</body>')).toEqual({
      shopContext: [],
      brandColors: [],
    });
    expect(deriveShopProfile('<<<<meta name="theme-color" content="#0f0"><title>guitar guitar')).toEqual({
      shopContext: [{ category_id: 'music', label: 'Music' }],
      brandColors: ['#00ff00'],
    });
  });

  it('matches a shop to every contracts category by its name, with words for each but other', () => {
    expect(shopCategories.map(({ id, label }) => ({ id, name: label }))).toEqual(productCategories);
    for (const category of shopCategories) {
      expect(category.words.length > 0).toBe(category.id !== OTHER_CATEGORY_ID);
    }
  });
});

describe('metadata saves', () => {
  it('plans one update: keys set as JSON under encoded fields, null keys removed, sizes counted', () => {
    const plan = planMetadataSave({ theme: 'dark', 'a.b': { x: 1 }, $where: null });
    expect(plan).toMatchObject({ ok: true, addedKeys: 2, unset: [metadataField('$where')] });
    if (!plan.ok) return;
    for (const field of plan.touched) expect(field).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeMetadata(plan.set)).toEqual({ theme: 'dark', 'a.b': { x: 1 } });
    expect(plan.addedBytes).toBe('theme'.length + '"dark"'.length + 'a.b'.length + '{"x":1}'.length);
  });

  it('bounds the number of keys, counting what is stored and not replaced', () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`k${index}`, index]));
    const full = planMetadataSave(many);
    expect(full).toMatchObject({ ok: true, addedKeys: 50 });
    if (!full.ok) return;
    const oneMore = planMetadataSave({ one_more: 1 });
    if (!oneMore.ok) throw new Error('one key fits');
    expect(limitRefusal(full.set, oneMore)).toEqual({ status: 400, message: 'Metadata can hold at most 50 keys' });
    // Replacing a stored key, or removing one while adding one, stays within the limit.
    const replace = planMetadataSave({ k1: 'again' });
    const swap = planMetadataSave({ k2: null, one_more: 1 });
    expect(replace.ok && limitRefusal(full.set, replace)).toBeUndefined();
    expect(swap.ok && limitRefusal(full.set, swap)).toBeUndefined();
  });

  it('refuses prototype keys and too many bytes before touching the database', () => {
    expect(planMetadataSave(JSON.parse('{"__proto__": 1}') as Record<string, unknown>)).toEqual({
      ok: false,
      status: 400,
      message: 'Metadata key "__proto__" is not allowed',
    });
    expect(planMetadataSave({ blob: 'x'.repeat(MAX_METADATA_BYTES) })).toEqual({
      ok: false,
      status: 413,
      message: `Metadata must be at most ${MAX_METADATA_BYTES} bytes in total`,
    });
  });
});

describe('config', () => {
  it('runs the dev identity provider only with DEV_IDENTITY_PROVIDER, and refuses that outside development', () => {
    expect(isDevIdpEnabled(loadConfig(authConfigSchema, { SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET }))).toBe(
      false,
    );
    expect(
      isDevIdpEnabled(
        loadConfig(authConfigSchema, { SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET, NODE_ENV: 'staging' }),
      ),
    ).toBe(false);
    expect(
      isDevIdpEnabled(
        loadConfig(authConfigSchema, { SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET, DEV_IDENTITY_PROVIDER: 'true' }),
      ),
    ).toBe(true);
    expect(
      isDevIdpEnabled(
        loadConfig(authConfigSchema, {
          SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
          NODE_ENV: 'production',
          GOOGLE_CLIENT_ID: 'real',
        }),
      ),
    ).toBe(false);
    expect(() =>
      loadConfig(authConfigSchema, {
        SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
        NODE_ENV: 'production',
        GOOGLE_CLIENT_ID: 'real',
        DEV_IDENTITY_PROVIDER: 'true',
      }),
    ).toThrow(
      /DEV_IDENTITY_PROVIDER: must not be enabled with NODE_ENV=production, only with NODE_ENV=development or test/,
    );
    expect(() =>
      loadConfig(authConfigSchema, {
        SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
        NODE_ENV: 'staging',
        DEV_IDENTITY_PROVIDER: 'true',
      }),
    ).toThrow(
      /DEV_IDENTITY_PROVIDER: must not be enabled with NODE_ENV=staging, only with NODE_ENV=development or test/,
    );
    expect(
      isDevIdpEnabled(
        loadConfig(authConfigSchema, {
          SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
          NODE_ENV: 'test',
          DEV_IDENTITY_PROVIDER: 'true',
        }),
      ),
    ).toBe(true);
  });

  it('refuses the loopback test option and a missing client id in production, and names the variables', () => {
    expect(() =>
      loadConfig(authConfigSchema, {
        SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
        NODE_ENV: 'production',
        SHOP_FETCH_ALLOW_LOOPBACK: 'true',
      }),
    ).toThrow(
      /GOOGLE_CLIENT_ID: must be set to the Google OAuth client id in production[\s\S]*SHOP_FETCH_ALLOW_LOOPBACK: must not be enabled in production/,
    );
    expect(
      loadConfig(authConfigSchema, { SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET }).SHOP_FETCH_ALLOW_LOOPBACK,
    ).toBe(false);
  });
});
