import { Writable } from 'node:stream';
import { createLogger } from '@productgen/service-kit';
import request from 'supertest';
import { buildGateway } from './helpers';

describe("the gateway's request log", () => {
  test('keeps no checkout session id or referral code, from the address or the Referer', async () => {
    const chunks: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk.toString('utf8'));
        callback();
      },
    });
    const gateway = buildGateway({}, createLogger({ service: 'gateway-test', level: 'info', destination }));
    try {
      const response = await request(gateway.app)
        .get('/configlist?session_id=cs_live_SECRET&page=2')
        .set('Referer', 'https://shop.example/pricing?ref=FRIEND42');
      expect(response.status).toBe(200);
    } finally {
      await gateway.stop();
    }
    const log = chunks.join('');
    expect(log).toContain('request completed');
    expect(log).toContain('session_id=redacted&page=2');
    expect(log).not.toMatch(/cs_live_SECRET|FRIEND42/);
  });
});
