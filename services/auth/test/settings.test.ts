import request from 'supertest';
import type { User } from '@productgen/contracts';
import { authSuite, recordingSiteFetcher, signInDev } from './helpers';
import { decodeMetadata, type StoredMetadata } from '../src/domain/metadata';

jest.setTimeout(60_000);

/** Records the addresses the service tried to read, instead of going to the network. */
const { fetchedSites, siteFetcher } = recordingSiteFetcher(
  '<title>Silver rings and necklaces</title><meta name="theme-color" content="#aa3366">',
);
const suite = authSuite({ siteFetcher });

async function newUser(email: string): Promise<{ key: string; user: User; post: (path: string) => request.Test }> {
  const session = await signInDev(suite.auth, email);
  return {
    key: session.session_key,
    user: session.user,
    post: (path) => request(suite.auth.service.app).post(path).set('X-Session-Key', session.session_key),
  };
}

describe('POST /user/settings', () => {
  it('saves an http(s) address, hides the site-URL tip and derives the shop context in the background', async () => {
    const { post, key } = await newUser('settings@example.com');
    const response = await post('/user/settings').send({ site_url: 'https://shop.example.com/' }).expect(200);
    expect(response.body).toMatchObject({
      email: 'settings@example.com',
      site_url: 'https://shop.example.com/',
      flags: { showSiteUrlTooltip: false, is_first_generation: true },
    });
    await suite.auth.service.settle();
    expect(fetchedSites).toContain('https://shop.example.com/');
    const me = await request(suite.auth.service.app).get('/auth/me').set('X-Session-Key', key).expect(200);
    expect(me.body.shop_context).toEqual([{ category_id: 'jewelry', label: 'Jewelry' }]);

    const internal = await request(suite.auth.service.app).get(`/internal/users/${me.body.id}`).expect(200);
    expect(internal.body.brand_colors).toEqual(['#aa3366']);
  });

  it('clears the address and its shop context with an empty string', async () => {
    const { post } = await newUser('clear@example.com');
    await post('/user/settings').send({ site_url: 'http://clear.example/' }).expect(200);
    await suite.auth.service.settle();
    const cleared = await post('/user/settings').send({ site_url: '' }).expect(200);
    expect(cleared.body).toMatchObject({ site_url: '', shop_context: [] });
  });

  it.each([
    [{ site_url: 'not a url' }],
    [{ site_url: 'javascript:alert(1)' }],
    [{ site_url: 'ftp://files.example.com' }],
    [{ site_url: 42 }],
    [{}],
  ])('refuses %j with 400 and a clear message', async (body) => {
    const { post } = await newUser('bad-url@example.com');
    const response = await post('/user/settings').send(body).expect(400);
    expect(response.body.code).toBe(400);
    expect(response.body.error).toMatch(/^site_url (must be a web address|is required)/);
  });

  it('refuses an oversized body with 413 and malformed JSON with 400', async () => {
    const { post } = await newUser('big@example.com');
    const huge = await post('/user/settings')
      .send({ site_url: `https://example.com/${'a'.repeat(100 * 1024)}` })
      .expect(413);
    expect(huge.body).toEqual({ code: 413, error: expect.stringContaining('Payload Too Large') });
    const malformed = await post('/user/settings')
      .set('content-type', 'application/json')
      .send('{"site_url": ')
      .expect(400);
    expect(malformed.body).toEqual({ code: 400, error: 'Bad Request: malformed JSON body' });
  });

  it('needs a session', async () => {
    const response = await request(suite.auth.service.app).post('/user/settings').send({ site_url: '' }).expect(401);
    expect(response.body).toEqual({ code: 401, error: 'Unauthorized' });
  });
});

describe('POST /user/settings/close-tooltip', () => {
  it('turns the site-URL tip off for enter_site_url and records other names', async () => {
    const { post, key } = await newUser('tips@example.com');
    await post('/user/settings/close-tooltip').send({ name: 'some_other_tip' }).expect(200, { success: true });
    let me = await request(suite.auth.service.app).get('/auth/me').set('X-Session-Key', key).expect(200);
    expect(me.body.flags.showSiteUrlTooltip).toBe(true);

    await post('/user/settings/close-tooltip').send({ name: 'enter_site_url' }).expect(200, { success: true });
    await post('/user/settings/close-tooltip').send({ name: 'enter_site_url' }).expect(200, { success: true });
    me = await request(suite.auth.service.app).get('/auth/me').set('X-Session-Key', key).expect(200);
    expect(me.body.flags.showSiteUrlTooltip).toBe(false);
    const stored = await suite.auth.connection.collection('users').findOne({ email: 'tips@example.com' });
    expect(stored?.dismissed_tooltips).toEqual(['some_other_tip', 'enter_site_url']);
  });

  it('refuses a missing or blank name', async () => {
    const { post } = await newUser('tips-bad@example.com');
    expect((await post('/user/settings/close-tooltip').send({}).expect(400)).body.error).toBe('name is required');
    expect((await post('/user/settings/close-tooltip').send({ name: '  ' }).expect(400)).body.error).toBe(
      'name must not be blank',
    );
  });
});

describe('POST /user/settings/metadata', () => {
  it('merges keys, removes a key set to null, and stores client keys only as data', async () => {
    const { post } = await newUser('meta@example.com');
    await post('/user/settings/metadata').send({ theme: 'dark', 'a.b': 1, $where: 'x' }).expect(200, { success: true });
    await post('/user/settings/metadata').send({ theme: null, lang: 'de' }).expect(200, { success: true });
    const stored = await suite.auth.connection.collection('users').findOne({ email: 'meta@example.com' });
    expect(decodeMetadata(stored?.metadata as StoredMetadata)).toEqual({ 'a.b': 1, $where: 'x', lang: 'de' });
  });

  it('loses nothing under concurrency: 20 saves of different keys at once are all kept', async () => {
    const { post } = await newUser('meta-many@example.com');
    await Promise.all(
      Array.from({ length: 20 }, (_unused, index) =>
        post('/user/settings/metadata')
          .send({ [`key${index}`]: { index } })
          .expect(200, { success: true }),
      ),
    );
    const stored = await suite.auth.connection.collection('users').findOne({ email: 'meta-many@example.com' });
    expect(decodeMetadata(stored?.metadata as StoredMetadata)).toEqual(
      Object.fromEntries(Array.from({ length: 20 }, (_unused, index) => [`key${index}`, { index }])),
    );
  });

  it('holds the key limit exactly under concurrency: with 49 keys stored, one of 10 new keys gets in', async () => {
    const { post } = await newUser('meta-limit@example.com');
    const stored49 = Object.fromEntries(Array.from({ length: 49 }, (_unused, index) => [`k${index}`, index]));
    await post('/user/settings/metadata').send(stored49).expect(200);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_unused, index) => post('/user/settings/metadata').send({ [`new${index}`]: true })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status === 400);
    expect(refused).toHaveLength(9);
    for (const answer of refused)
      expect(answer.body).toEqual({ code: 400, error: 'Metadata can hold at most 50 keys' });
    const stored = await suite.auth.connection.collection('users').findOne({ email: 'meta-limit@example.com' });
    expect(Object.keys(stored?.metadata as StoredMetadata)).toHaveLength(50);
  });

  it('refuses a non-object, a prototype key and too much data', async () => {
    const { post } = await newUser('meta-bad@example.com');
    expect((await post('/user/settings/metadata').send([1, 2]).expect(400)).body.code).toBe(400);
    const proto = await post('/user/settings/metadata')
      .send({ constructor: { prototype: 1 } })
      .expect(400);
    expect(proto.body.error).toBe('Metadata key "constructor" is not allowed');
    const tooMuch = await post('/user/settings/metadata')
      .send({ blob: 'x'.repeat(20 * 1024) })
      .expect(413);
    expect(tooMuch.body.error).toMatch(/at most 16384 bytes/);
  });
});

describe('referral source survey', () => {
  it('records the answer and reports it as seen', async () => {
    const { post, key } = await newUser('survey@example.com');
    const hasSeen = () =>
      request(suite.auth.service.app).get('/hear-about-source/has-seen').set('X-Session-Key', key).expect(200);
    expect((await hasSeen()).body).toEqual({ hasSeen: false });
    await post('/hear-about-source')
      .send({ source: 'x'.repeat(255) })
      .expect(200, { success: true });
    expect((await hasSeen()).body).toEqual({ hasSeen: true });
  });

  it('refuses more than 255 characters and a missing source', async () => {
    const { post, key } = await newUser('survey-bad@example.com');
    const long = await post('/hear-about-source')
      .send({ source: 'x'.repeat(256) })
      .expect(400);
    expect(long.body).toEqual({ code: 400, error: 'source must be at most 255 characters' });
    const missing = await post('/hear-about-source').send({}).expect(400);
    expect(missing.body).toEqual({ code: 400, error: 'source is required' });
    const seen = await request(suite.auth.service.app)
      .get('/hear-about-source/has-seen')
      .set('X-Session-Key', key)
      .expect(200);
    expect(seen.body).toEqual({ hasSeen: false });
  });
});

describe('isolation and routing', () => {
  it("never shows another user's data: every answer is the caller's own", async () => {
    const alice = await newUser('alice@example.com');
    const bob = await newUser('bob@example.com');
    await alice.post('/user/settings').send({ site_url: 'https://alice.example/' }).expect(200);
    const bobMe = await request(suite.auth.service.app).get('/auth/me').set('X-Session-Key', bob.key).expect(200);
    expect(bobMe.body).toMatchObject({ id: bob.user.id, site_url: '' });
  });

  it('answers 404 for unknown paths and 405 for a wrong method, as JSON', async () => {
    expect((await request(suite.auth.service.app).get('/nope').expect(404)).body).toEqual({
      code: 404,
      error: 'Not Found',
    });
    const wrongMethod = await request(suite.auth.service.app).get('/auth/logout').expect(405);
    expect(wrongMethod.body).toEqual({ code: 405, error: 'Method Not Allowed' });
  });

  it('answers 404 for an unknown or malformed user id on internal endpoints', async () => {
    await request(suite.auth.service.app).get('/internal/users/0123456789abcdef01234567').expect(404);
    await request(suite.auth.service.app).post('/internal/users/not-an-id/first-generation-done').expect(404);
  });
});
