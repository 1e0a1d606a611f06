#!/usr/bin/env node
// The embedded S3 endpoint as a process of its own, for `npm run start:distributed`:
//   node scripts/distributed/embedded-s3.mjs --dir <data dir> --access-key <key> --secret-key <secret>
// Prints {"endpoint": ...} on its first line once it listens; stops on SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';

const { startEmbeddedS3 } = createRequire(import.meta.url)('@productgen/embedded-s3');

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    port: { type: 'string', default: '0' },
    'access-key': { type: 'string' },
    'secret-key': { type: 'string' },
  },
});
if (!values.dir) {
  console.error('usage: embedded-s3.mjs --dir <data dir> [--port <port>] [--access-key <key>] [--secret-key <secret>]');
  process.exit(2);
}
const s3 = await startEmbeddedS3({
  dataDir: values.dir,
  port: Number(values.port),
  accessKey: values['access-key'],
  secretKey: values['secret-key'],
});
console.log(JSON.stringify({ endpoint: s3.endpoint }));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => s3.stop().then(() => process.exit(0)));
}
