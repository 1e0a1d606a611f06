import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  signInWithDevIdentity,
  startPlatformProcess,
  type PlatformProcess,
} from '@productgen/test-kit/platform-process';

// `npm start` as a newcomer runs it: the whole platform in one process on embedded infrastructure.
jest.setTimeout(120_000);

const person = { email: 'launcher@example.com', given_name: 'Lana', family_name: 'Uncher' };
let dataDir: string;
let platform: PlatformProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'productgen-launcher-'));
});

afterAll(async () => {
  await platform?.stop('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

test('serves the web app, its runtime documents and the API, then exits cleanly on Ctrl-C', async () => {
  platform = await startPlatformProcess({ dataDir });

  const page = await fetch(`${platform.webUrl}/settings`);
  expect(page.status).toBe(200);
  expect(page.headers.get('cache-control')).toBe('no-cache');
  expect(await page.text()).toContain('<main id=pg-main>');

  const runtimeConfig = (await (await fetch(`${platform.webUrl}/runtime-config.json`)).json()) as Record<
    string,
    unknown
  >;
  // No API host: the web app puts its page's own host in front of the API port (any host the user typed works).
  expect(runtimeConfig.apiBaseUrl).toBeUndefined();
  expect(runtimeConfig).toMatchObject({
    apiPort: Number(new URL(platform.apiUrl).port),
    devIdentityProvider: true,
    productName: 'ProductGen',
  });

  const registry = (await (await fetch(`${platform.webUrl}/remotes.json`)).json()) as Record<string, string>;
  expect(Object.keys(registry).sort()).toEqual(['mfe_create', 'mfe_dashboard', 'mfe_marketing', 'mfe_tools']);
  for (const manifestPath of Object.values(registry)) {
    expect(manifestPath).toMatch(/^\/mfe\/[a-z]+\/\d+\.\d+\.\d+\/mf-manifest\.json$/);
    expect((await fetch(`${platform.webUrl}${manifestPath}`)).status).toBe(200);
  }

  expect(await (await fetch(`${platform.apiUrl}/healthz`)).json()).toEqual({ status: 'ok' });
  const { user } = await signInWithDevIdentity(platform.apiUrl, person);
  expect(user.email).toBe(person.email);

  expect(await platform.stop('SIGINT')).toBe(0);
  expect(platform.output()).not.toMatch(/failed to close|Error:/);
});

test('a second start keeps the data', async () => {
  const first = await startPlatformProcess({ dataDir });
  const before = await signInWithDevIdentity(first.apiUrl, person);
  expect(await first.stop('SIGTERM')).toBe(0);

  platform = await startPlatformProcess({ dataDir });
  const after = await signInWithDevIdentity(platform.apiUrl, person);
  expect(after.user.id).toBe(before.user.id);
  const me = await fetch(`${platform.apiUrl}/auth/me`, { headers: { 'X-Session-Key': after.session_key } });
  expect(me.status).toBe(200);
  // The key from before the restart was issued by the same database, so it is still a valid session.
  const oldKey = await fetch(`${platform.apiUrl}/auth/me`, { headers: { 'X-Session-Key': before.session_key } });
  expect(oldKey.status).toBe(200);
});
