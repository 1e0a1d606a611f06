import http from 'node:http';
import request from 'supertest';
import {
  createSafeSiteFetcher,
  isAddressAllowed,
  SiteFetchFailedError,
  SiteFetchRefusedError,
  type SiteFetcher,
} from '../src';
import { MongoFixture, signInDev, startRecordingServer, startTestService, type RecordingServer } from './helpers';

jest.setTimeout(60_000);

const SHOP_HTML = `<!doctype html><html><head>
  <title>Paws & Whiskers — toys and food for your dog and cat</title>
  <meta name="description" content="Dog collars, cat toys, pet food and more">
  <meta name="theme-color" content="#FF6600">
  <style>.btn{background:#1e88e5}.btn:hover{background:#1E88E5}body{color:#333333;background:#ffffff}</style>
</head><body><nav><a href="/dogs">Dogs</a><a href="/cats">Cats</a><a href="/leash">Leash & collar</a></nav></body></html>`;

/** Every request this server sees is a request the fetcher should not have made (in the refusal tests). */
let target: RecordingServer;
/** The same handler on IPv6 loopback, for [::1] and names resolving to it. */
let targetV6: http.Server;
let targetV6Requests = 0;

beforeAll(async () => {
  target = await startRecordingServer((req, res) => {
    if (req.url?.startsWith('/hop/')) {
      const remaining = Number(req.url.slice('/hop/'.length));
      res.writeHead(302, { location: remaining > 0 ? `/hop/${remaining - 1}` : '/shop' }).end();
    } else if (req.url === '/to-private') {
      res.writeHead(301, { location: 'http://10.1.2.3/admin' }).end();
    } else if (req.url === '/to-metadata') {
      res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<title>Guitars</title>${'<p>filler</p>'.repeat(200_000)}`);
    } else if (req.url === '/slow') {
      // Never answers: the fetcher's time cap must end the wait.
    } else if (req.url === '/image') {
      res.writeHead(200, { 'content-type': 'image/png' }).end('png');
    } else {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SHOP_HTML);
    }
  });
  targetV6 = http.createServer((_req, res) => {
    targetV6Requests += 1;
    res.end(SHOP_HTML);
  });
  await new Promise<void>((resolve) => targetV6.listen(target.port, '::1', resolve));
});

afterAll(async () => {
  await target?.close();
  targetV6?.closeAllConnections();
  await new Promise<void>((resolve) => (targetV6 ? targetV6.close(() => resolve()) : resolve()));
});

const defaultFetcher = () =>
  createSafeSiteFetcher({ timeoutMs: 2000, maxBytes: 1024 * 1024, policy: { allowLoopback: false } });
const loopbackFetcher = (options: { timeoutMs?: number; maxBytes?: number } = {}) =>
  createSafeSiteFetcher({
    timeoutMs: options.timeoutMs ?? 2000,
    maxBytes: options.maxBytes ?? 1024 * 1024,
    policy: { allowLoopback: true },
  });

function requestCount(): number {
  return target.requests.length + targetV6Requests;
}

describe('address policy', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '::1',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '::',
    '224.0.0.1',
    'ff02::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '100.64.0.1',
    '255.255.255.255',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isAddressAllowed(address)).toBe(false);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows public %s',
    (address) => {
      expect(isAddressAllowed(address)).toBe(true);
    },
  );

  it('lets loopback through only when explicitly allowed, and nothing else private', () => {
    expect(isAddressAllowed('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isAddressAllowed('::1', { allowLoopback: true })).toBe(true);
    expect(isAddressAllowed('10.0.0.1', { allowLoopback: true })).toBe(false);
    expect(isAddressAllowed('169.254.169.254', { allowLoopback: true })).toBe(false);
  });
});

describe('the fetcher with the default policy never connects to non-public addresses', () => {
  const refused = () => [
    `http://127.0.0.1:${target.port}/`,
    `http://[::1]:${target.port}/`,
    `http://localhost:${target.port}/`,
    `http://[::ffff:127.0.0.1]:${target.port}/`,
    `http://0.0.0.0:${target.port}/`,
    `http://2130706433:${target.port}/`,
    'http://10.0.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/',
    'file:///etc/passwd',
  ];

  it('refuses every loopback, private and link-local target, and the local server sees no request', async () => {
    const fetchSite = defaultFetcher();
    const before = requestCount();
    for (const url of refused()) {
      await expect(fetchSite(url)).rejects.toBeInstanceOf(SiteFetchRefusedError);
    }
    expect(requestCount()).toBe(before);
  });

  it('refuses a name when any of its addresses is private', async () => {
    const fetchSite = createSafeSiteFetcher({
      timeoutMs: 2000,
      maxBytes: 1024,
      policy: { allowLoopback: false },
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
    });
    await expect(fetchSite('http://mixed.example/')).rejects.toThrow(/non-public address \(10\.0\.0\.7\)/);
  });
});

describe('the fetcher with loopback allowed (test-only option)', () => {
  let fetchSite: SiteFetcher;
  beforeEach(() => {
    fetchSite = loopbackFetcher();
  });

  it('reads a page', async () => {
    const page = await fetchSite(`${target.url}/`);
    expect(page.html).toContain('Paws & Whiskers');
  });

  it('follows up to 3 redirects and refuses a 4th', async () => {
    await expect(fetchSite(`${target.url}/hop/2`)).resolves.toMatchObject({ url: `${target.url}/shop` });
    await expect(fetchSite(`${target.url}/hop/3`)).rejects.toThrow(/more than 3 redirects/);
  });

  it('re-checks every hop: a redirect to a private or metadata address is refused before connecting', async () => {
    await expect(fetchSite(`${target.url}/to-private`)).rejects.toBeInstanceOf(SiteFetchRefusedError);
    await expect(fetchSite(`${target.url}/to-metadata`)).rejects.toBeInstanceOf(SiteFetchRefusedError);
  });

  it('connects to the vetted address, not to what a second lookup might say', async () => {
    const lookups: string[] = [];
    const pinned = createSafeSiteFetcher({
      timeoutMs: 2000,
      maxBytes: 1024 * 1024,
      policy: { allowLoopback: true },
      // "shop.invalid" exists only here: success proves the socket went to the address we vetted.
      resolve: async (hostname) => {
        lookups.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const before = target.requests.length;
    await expect(pinned(`http://shop.invalid:${target.port}/`)).resolves.toMatchObject({
      html: expect.stringContaining('Paws'),
    });
    expect(lookups).toEqual(['shop.invalid']);
    expect(target.requests[before]?.headers.host).toBe(`shop.invalid:${target.port}`);
  });

  it('caps the size, the time and the content type', async () => {
    const small = loopbackFetcher({ maxBytes: 64 * 1024 });
    const page = await small(`${target.url}/big`);
    expect(Buffer.byteLength(page.html)).toBeLessThanOrEqual(64 * 1024);
    expect(page.html).toContain('<title>Guitars</title>');

    await expect(loopbackFetcher({ timeoutMs: 300 })(`${target.url}/slow`)).rejects.toBeInstanceOf(
      SiteFetchFailedError,
    );
    await expect(fetchSite(`${target.url}/image`)).rejects.toThrow(/image\/png, not a web page/);
  });
});

describe('shop context through the API', () => {
  const mongo = new MongoFixture();
  beforeAll(() => mongo.start());
  afterAll(() => mongo.stop());

  it('by default never fetches a loopback site saved as the website', async () => {
    const auth = await startTestService(mongo);
    try {
      const { session_key: key } = await signInDev(auth, 'ssrf@example.com');
      const before = requestCount();
      for (const url of [
        `http://127.0.0.1:${target.port}/`,
        `http://localhost:${target.port}/`,
        `http://[::1]:${target.port}/`,
      ]) {
        await request(auth.service.app)
          .post('/user/settings')
          .set('X-Session-Key', key)
          .send({ site_url: url })
          .expect(200);
        await auth.service.settle();
      }
      expect(requestCount()).toBe(before);
      const me = await request(auth.service.app).get('/auth/me').set('X-Session-Key', key).expect(200);
      expect(me.body.shop_context).toEqual([]);
    } finally {
      await auth.close();
    }
  });

  it('derives categories and colours when loopback is allowed for the test', async () => {
    const auth = await startTestService(mongo, { env: { SHOP_FETCH_ALLOW_LOOPBACK: 'true' } });
    try {
      const { session_key: key, user } = await signInDev(auth, 'petshop@example.com');
      await request(auth.service.app)
        .post('/user/settings')
        .set('X-Session-Key', key)
        .send({ site_url: `${target.url}/` })
        .expect(200);
      await auth.service.settle();
      const me = await request(auth.service.app).get('/auth/me').set('X-Session-Key', key).expect(200);
      expect(me.body.shop_context).toEqual([{ category_id: 'pet', label: 'Pet' }]);
      const internal = await request(auth.service.app).get(`/internal/users/${user.id}`).expect(200);
      expect(internal.body.brand_colors).toEqual(['#ff6600', '#1e88e5']);
    } finally {
      await auth.close();
    }
  });
});
