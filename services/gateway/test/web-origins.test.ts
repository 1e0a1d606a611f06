import { isAllowedWebOrigin, isPotentiallyTrustworthy } from '../src/domain/web-origins';

const configured = ['http://localhost:3000', 'https://app.example.com'];

describe('isAllowedWebOrigin', () => {
  test('a configured origin, whatever host was addressed', () => {
    expect(isAllowedWebOrigin('https://app.example.com', 'api.example.com', configured)).toBe(true);
  });

  test.each(['127.0.0.1', 'studio.lan', '[::1]'])('the web port at the addressed host %s', (host) => {
    expect(isAllowedWebOrigin(`http://${host}:3000`, `${host}:8080`, configured)).toBe(true);
  });

  test.each([
    ['http://evil.example:3000', 'studio.lan:8080'],
    ['http://studio.lan:3001', 'studio.lan:8080'],
    ['https://studio.lan:3000', 'studio.lan:8080'],
    ['http://studio.lan:3000/path', 'studio.lan:8080'],
    ['null', 'studio.lan:8080'],
    [undefined, 'studio.lan:8080'],
    ['http://studio.lan:3000', undefined],
  ])('refuses %s addressed at %s', (origin, host) => {
    expect(isAllowedWebOrigin(origin, host, configured)).toBe(false);
  });
});

describe('isPotentiallyTrustworthy', () => {
  test.each([
    ['https', 'studio.lan'],
    ['http', 'localhost'],
    ['http', 'app.localhost'],
    ['http', '127.0.0.1'],
    ['http', '127.4.5.6'],
    ['http', '[::1]'],
  ])('%s://%s is', (protocol, host) => {
    expect(isPotentiallyTrustworthy(protocol, host)).toBe(true);
  });

  test.each([
    ['http', 'studio.lan'],
    ['http', '192.168.1.20'],
    ['http', 'localhost.example.com'],
    ['http', '127.0.0.1.nip.io'],
  ])('%s://%s is not', (protocol, host) => {
    expect(isPotentiallyTrustworthy(protocol, host)).toBe(false);
  });
});
