import { loadStartupConfig, parseRemoteRegistry, parseRuntimeConfig, StartupConfigError } from '@productgen/mf-shared';

describe('runtime config', () => {
  it('accepts the server-written config and trims the API origin', () => {
    expect(
      parseRuntimeConfig({
        apiBaseUrl: 'http://localhost:8080/',
        googleClientId: 'id',
        productName: 'Acme',
        devIdentityProvider: false,
      }),
    ).toEqual({
      apiBaseUrl: 'http://localhost:8080',
      googleClientId: 'id',
      productName: 'Acme',
      devIdentityProvider: false,
      trackingScripts: {},
    });
  });

  it('passes the configured tracking scripts on', () => {
    const trackingScripts = { analytics: 'https://stats.example/a.js', socialPixel: '/pixel.js' };
    expect(parseRuntimeConfig({ apiPort: 8080, devIdentityProvider: true, trackingScripts }).trackingScripts).toEqual(
      trackingScripts,
    );
  });

  it('without an API base, takes the page host with the API port (any host the user typed)', () => {
    const config = { apiPort: 8080, devIdentityProvider: true };
    expect(parseRuntimeConfig(config, { protocol: 'http:', hostname: '127.0.0.1' }).apiBaseUrl).toBe(
      'http://127.0.0.1:8080',
    );
    expect(parseRuntimeConfig(config, { protocol: 'http:', hostname: 'studio.lan' }).apiBaseUrl).toBe(
      'http://studio.lan:8080',
    );
    // jsdom's page is http://localhost/.
    expect(parseRuntimeConfig(config).apiBaseUrl).toBe('http://localhost:8080');
  });

  it.each([
    [null, 'must hold a JSON object'],
    [{ apiBaseUrl: '/api' }, 'apiBaseUrl must be an absolute http(s) URL'],
    [{ devIdentityProvider: true }, 'apiBaseUrl or apiPort (1-65535) is required'],
    [{ apiPort: 0, devIdentityProvider: true }, 'apiBaseUrl or apiPort (1-65535) is required'],
    [{ apiBaseUrl: 'http://a', devIdentityProvider: 'yes' }, 'devIdentityProvider must be true or false'],
    [{ apiBaseUrl: 'http://a', devIdentityProvider: false }, 'googleClientId is required'],
    [{ apiBaseUrl: 'http://a', devIdentityProvider: true, productName: ' ' }, 'productName must be a non-empty string'],
    [
      { apiPort: 1, devIdentityProvider: true, trackingScripts: { chat: '/c.js' } },
      'trackingScripts.chat is not one of',
    ],
    [
      { apiPort: 1, devIdentityProvider: true, trackingScripts: { analytics: 'javascript:alert(1)' } },
      'trackingScripts.analytics must be an http(s) URL or a /path',
    ],
  ])('rejects %j with a clear message', (value, message) => {
    expect(() => parseRuntimeConfig(value)).toThrow(message);
  });

  it('reads the remote registry and rejects entries that are not URLs', () => {
    expect(parseRemoteRegistry({ mfe_tools: '/mfe/tools/0.1.0/mf-manifest.json' })).toEqual({
      mfe_tools: '/mfe/tools/0.1.0/mf-manifest.json',
    });
    expect(() => parseRemoteRegistry({ mfe_tools: 3 })).toThrow(
      'the entry of "mfe_tools" must be a mf-manifest.json URL',
    );
    expect(() => parseRemoteRegistry([])).toThrow(StartupConfigError);
  });

  it('names the file that could not be loaded', async () => {
    const fetchImpl = (async (url: string) => ({
      ok: url !== '/remotes.json',
      status: 404,
      json: async () => ({ apiBaseUrl: 'http://a', devIdentityProvider: true }),
    })) as unknown as typeof fetch;
    await expect(loadStartupConfig(fetchImpl)).rejects.toThrow('Could not load /remotes.json: HTTP 404');
  });
});
