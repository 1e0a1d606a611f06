import { resolveApiBaseUrl } from '@productgen/platform-client';

describe('resolveApiBaseUrl', () => {
  test('a configured API base wins, without a trailing slash', () => {
    expect(
      resolveApiBaseUrl(
        { apiBaseUrl: 'https://api.example.com/', apiPort: 8080 },
        { protocol: 'https:', hostname: 'x.example' },
      ),
    ).toBe('https://api.example.com');
  });

  test.each([
    ['localhost', 'http://localhost:8080'],
    ['127.0.0.1', 'http://127.0.0.1:8080'],
    ['studio.lan', 'http://studio.lan:8080'],
    ['[::1]', 'http://[::1]:8080'],
  ])('without one, the page host %s with the API port', (hostname, expected) => {
    expect(resolveApiBaseUrl({ apiPort: 8080 }, { protocol: 'http:', hostname })).toBe(expected);
  });

  test('neither a base nor a valid port is a configuration error', () => {
    expect(() => resolveApiBaseUrl({}, { protocol: 'http:', hostname: 'localhost' })).toThrow(
      'Either apiBaseUrl or apiPort (1-65535) must be configured',
    );
    expect(() => resolveApiBaseUrl({ apiPort: 70_000 }, { protocol: 'http:', hostname: 'localhost' })).toThrow(
      TypeError,
    );
  });
});
