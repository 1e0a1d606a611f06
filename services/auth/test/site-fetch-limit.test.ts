import request from 'supertest';
import { authSuite, recordingSiteFetcher, signInDev } from './helpers';

jest.setTimeout(60_000);

// Security review item 5: each settings save with a website address makes the server read that site, so the reads
// are limited per user (a sliding window in MongoDB, shared by every replica); past it the save is refused unsaved.

/** The addresses the service read, instead of going to the network. */
const { fetchedSites, siteFetcher } = recordingSiteFetcher('<title>Ceramic mugs</title>');
const suite = authSuite({
  env: { SITE_FETCH_LIMIT_PER_WINDOW: '3', SITE_FETCH_LIMIT_WINDOW_MINUTES: '60' },
  siteFetcher,
});

test('at most the limit of website reads per user and window; then 429 in words, nothing saved, nothing read', async () => {
  const session = await signInDev(suite.auth, 'site-fetch-limit@example.com');
  const save = (siteUrl: string) =>
    request(suite.auth.service.app)
      .post('/user/settings')
      .set('X-Session-Key', session.session_key)
      .send({ site_url: siteUrl });
  for (const site of ['https://one.example/', 'https://two.example/', 'https://three.example/']) {
    expect((await save(site)).status).toBe(200);
  }
  await suite.auth.service.settle();
  expect(fetchedSites).toHaveLength(3);

  const refused = await save('https://four.example/');
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({
    code: 429,
    error:
      'You have saved your website address 3 times in the last 60 minutes, the most we allow. Please try again in 60 minutes.',
  });
  await suite.auth.service.settle();
  expect(fetchedSites).toHaveLength(3);
  const me = await request(suite.auth.service.app)
    .get('/auth/me')
    .set('X-Session-Key', session.session_key)
    .expect(200);
  expect(me.body.site_url).toBe('https://three.example/');
  // Clearing the address reads nothing, so it is never refused.
  expect((await save('')).status).toBe(200);

  // Another user is not held up; the window slides.
  const other = await signInDev(suite.auth, 'site-fetch-other@example.com');
  await request(suite.auth.service.app)
    .post('/user/settings')
    .set('X-Session-Key', other.session_key)
    .send({ site_url: 'https://other.example/' })
    .expect(200);
  suite.auth.clock.advance(60 * 60_000);
  expect((await save('https://four.example/')).status).toBe(200);
  await suite.auth.service.settle();
  expect(fetchedSites).toContain('https://four.example/');
});
