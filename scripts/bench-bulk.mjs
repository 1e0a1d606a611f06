// npm run bench:bulk [-- --products N] [--mode embedded|distributed|both] [--max-minutes M]
//
// A batch of N products × 5 images (default 200 × 5 = 1000) end to end through the HTTP API: sign in, buy the
// credits through the dev checkout, upload the zip, watch the job as the job page does (the whole job every 10 s; the
// in-progress list every second times the end) until it is done. Embedded mode: the platform composed in one child
// process, exactly as `npm start` composes it. Distributed mode: auth, billing, the generation API, two render
// workers, bulk and the gateway as separate processes from their builds, on real RabbitMQ (AMQP_URL, a throwaway
// virtual host made with rabbitmqctl) and the embedded MongoDB and S3. Prints wall time, images per
// second, the time to the first finished image, how the machine's cores were spent (busy, idle, taken by the
// hypervisor), and the peak RSS (VmHWM), CPU time and page faults of every process.
// With --max-minutes, a run still going after M minutes stops there and prints the same figures for the images
// finished by then.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { freePort } = require('@productgen/service-kit/local-ports');
const { describeCpu } = require('@productgen/host-cpu');
const IMAGES_PER_PRODUCT = 5;
/** How often the job page asks for the job (mfe-create's JOB_POLL_INTERVAL_MS). */
const JOB_PAGE_POLL_MS = 10_000;
const PHOTOS = path.resolve(root, '../shared/photos/test');
/** --max-minutes: a batch still running after this long is stopped and reported as far as it got. */
let maxMinutes = Infinity;

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request on its own connection (the embedded platform can hold its event loop for seconds). */
function request(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function json(url, options) {
  const answer = await request(url, options);
  if (answer.status >= 400) throw new Error(`${url} answered ${answer.status}: ${answer.body.toString()}`);
  return JSON.parse(answer.body.toString());
}

/** Peak resident set size of a process, from Linux's VmHWM. */
function peakRssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
    return line ? Math.round(Number(line[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * From /proc/<pid>/stat: CPU seconds so far (user + system, all threads; ticks of 1/100 s), the kernel's share of
 * them, and minor page faults (dear on a virtual machine).
 */
function processStat(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return {
      cpu: (Number(fields[11]) + Number(fields[12])) / 100,
      system: Number(fields[12]) / 100,
      pageFaults: Number(fields[7]),
    };
  } catch {
    return { cpu: 0, system: 0, pageFaults: 0 };
  }
}

/** A process's peak RSS and CPU time, and its CPU and page faults per finished image. */
function usage(pid, images) {
  const { cpu, system, pageFaults } = processStat(pid);
  const perImage =
    images > 0
      ? `, ${((cpu * 1000) / images).toFixed(0)} ms CPU and ${Math.round(pageFaults / images)} page faults per finished image`
      : '';
  return `peak RSS ${peakRssMb(pid)} MB, CPU ${cpu.toFixed(0)} s (kernel ${system.toFixed(0)} s)${perImage}`;
}

/** The machine's CPU time so far by kind, from /proc/stat's first line (ticks of all cores). */
function machineTicks() {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal };
  } catch {
    return null;
  }
}

/**
 * How the cores were spent between two `machineTicks`: busy, idle, and taken by the hypervisor for other guests
 * (steal), which slows a virtual machine's run without showing in any process's CPU time.
 */
function coreShares(before, after) {
  if (!before || !after) return 'not known (no /proc/stat)';
  const spent = Object.fromEntries(Object.keys(after).map((kind) => [kind, after[kind] - before[kind]]));
  const total = spent.busy + spent.idle + spent.steal;
  const share = (ticks) => `${Math.round((100 * ticks) / total)} %`;
  return `${share(spent.busy)} busy, ${share(spent.idle)} idle, ${share(spent.steal)} taken by the hypervisor (steal)`;
}

function photos() {
  const files = [];
  for (const dir of readdirSync(PHOTOS)) {
    const full = path.join(PHOTOS, dir);
    if (!statSync(full).isDirectory()) continue;
    for (const file of readdirSync(full)) if (/\.(jpe?g|png|webp)$/i.test(file)) files.push(path.join(full, file));
  }
  return files.sort();
}

async function makeZip(products) {
  const yazl = require(path.join(root, 'node_modules/yazl'));
  const zip = new yazl.ZipFile();
  const files = photos();
  for (let index = 0; index < products; index += 1) {
    const file = files[index % files.length];
    zip.addBuffer(readFileSync(file), `p${String(index).padStart(3, '0')}-${path.basename(file)}`);
  }
  zip.end();
  const chunks = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function startProcess(name, script, env, readyLine) {
  const child = spawn(process.execPath, [path.join(root, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onData = (chunk) => (output += chunk.toString());
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const ready = new Promise((resolve, reject) => {
    const timer = setInterval(async () => {
      if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`${name} exited:\n${output.slice(-3000)}`));
        return;
      }
      if (readyLine && output.includes(readyLine)) {
        clearInterval(timer);
        resolve();
      } else if (!readyLine && env.PORT) {
        try {
          if ((await request(`http://127.0.0.1:${env.PORT}/readyz`)).status === 200) {
            clearInterval(timer);
            resolve();
          }
        } catch {
          // not listening yet
        }
      }
    }, 200);
  });
  return { name, child, ready, output: () => output };
}

async function stopProcess(processInfo) {
  if (processInfo.child.exitCode !== null) return;
  const exited = new Promise((resolve) => processInfo.child.once('exit', resolve));
  processInfo.child.kill('SIGTERM');
  const timer = setTimeout(() => processInfo.child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** Signs in, buys enough credits through the dev checkout, uploads the batch and follows it to the end. */
async function runBatch(apiUrl, products, label) {
  const email = `bench.${randomBytes(4).toString('hex')}@example.com`;
  const { credential } = await json(`${apiUrl}/dev-idp/credential?email=${email}&given_name=Bench&family_name=Mark`);
  const { session_key: key } = await json(`${apiUrl}/auth/google`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ credential }),
  });
  const auth = { 'X-Session-Key': key };
  const needed = products * IMAGES_PER_PRODUCT;
  for (let bought = 0; bought < needed; bought += 200) {
    const { sessionId } = await json(`${apiUrl}/payments/create-checkout-session`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ package: 3 }),
    });
    await request(`${apiUrl}/dev-checkout/${sessionId}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'card_number=4242424242424242',
    });
  }
  for (;;) {
    const me = await json(`${apiUrl}/auth/me`, { headers: auth });
    if (me.credits >= needed) break;
    await delay(500);
  }

  const form = new FormData();
  form.append('numGenerates', String(IMAGES_PER_PRODUCT));
  // Every product renders: the bench measures rendering, not a seller's check of uncertain products.
  form.append('checkUncertain', 'false');
  form.append('zipFile', new Blob([await makeZip(products)], { type: 'application/zip' }), 'images.zip');
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const started = Date.now();
  const ticksAtStart = machineTicks();
  const { bulk_job_uuid: job } = await json(`${apiUrl}/image-gen/bulk-zip`, {
    method: 'POST',
    headers: { ...auth, 'content-type': encoded.headers.get('content-type'), 'content-length': String(body.length) },
    body,
  });
  const accepted = Date.now() - started;
  // The load of a seller watching the job: the job page asks for the whole job every 10 s (JOB_POLL_INTERVAL_MS);
  // the bench also reads the in-progress list every second (bulk's own record, no generations) to time the end.
  let firstImage = null;
  let outcome;
  let nextJobPoll = 0;
  for (;;) {
    if (Date.now() >= nextJobPoll) {
      await json(`${apiUrl}/image-gen/bulk-job/${job}`, { headers: auth });
      nextJobPoll = Date.now() + JOB_PAGE_POLL_MS;
    }
    const { jobs } = await json(`${apiUrl}/image-gen/bulk-jobs?statuses=pending,processing`, { headers: auth });
    const running = jobs.find((listed) => listed.bulk_job_uuid === job);
    if (firstImage === null && (!running || running.thumbnails.length > 0)) firstImage = Date.now() - started;
    if (!running) break;
    if (Date.now() - started > maxMinutes * 60_000) {
      outcome = `stopped after --max-minutes ${maxMinutes}, job ${running.status}, ${running.generations_done}/${running.generations_total} products done`;
      break;
    }
    await delay(1000);
  }
  const wall = (Date.now() - started) / 1000;
  const cores = coreShares(ticksAtStart, machineTicks());
  const last = await json(`${apiUrl}/image-gen/bulk-job/${job}`, { headers: auth });
  outcome ??= `job ${last.status}`;
  // Finished images: those whose fixes are all done (a job's thumbnails count the same way).
  const images = last.generations.reduce(
    (sum, generation) => sum + generation.images.filter((image) => image.metadata.fixes_done.every(Boolean)).length,
    0,
  );
  console.log(`\n${label}: ${products} products × ${IMAGES_PER_PRODUCT} → ${images} finished images, ${outcome}`);
  console.log(`  upload accepted after ${(accepted / 1000).toFixed(1)} s`);
  console.log(`  first finished image after ${firstImage === null ? '–' : (firstImage / 1000).toFixed(1)} s`);
  console.log(`  wall time ${wall.toFixed(1)} s, ${(images / wall).toFixed(2)} images/s`);
  console.log(`  the machine's cores meanwhile: ${cores}`);
  return images;
}

async function embeddedChild() {
  const devstack = require(path.join(root, 'packages/devstack/dist/index.js'));
  const kit = require(path.join(root, 'packages/service-kit/dist/index.js'));
  const dataDir = process.env.BENCH_DATA_DIR;
  const logger = kit.createLogger({ service: 'bench', level: 'error' });
  const infrastructure = await devstack.startEmbeddedInfrastructure({ dataDir, logger });
  const lifecycle = kit.createLifecycle({ logger });
  lifecycle.handleSignals();
  lifecycle.onShutdown('infrastructure', () => infrastructure.stop());
  const config = kit.loadConfig(devstack.devstackConfigSchema, process.env);
  const { apiUrl } = await devstack.startEmbeddedPlatform({
    config,
    infrastructure,
    lifecycle,
    webOrigin: `http://127.0.0.1:${config.WEB_PORT}`,
  });
  console.log(`BENCH API ${apiUrl}`);
}

/** Embedded mode: the platform in one child process. */
async function embedded(products) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'productgen-bench-bulk-'));
  const apiPort = await freePort();
  const platform = startProcess(
    'embedded platform',
    'scripts/bench-bulk.mjs',
    {
      BENCH_CHILD: 'embedded',
      BENCH_DATA_DIR: dataDir,
      API_PORT: String(apiPort),
      WEB_PORT: String(await freePort()),
      PUBLIC_HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      DEV_IDENTITY_PROVIDER: 'true',
      // The in-process renderer holds the one event loop for seconds at a time; let calls wait for it.
      SESSION_VERIFY_TIMEOUT_MS: '60000',
      UPSTREAM_TIMEOUT_MS: '300000',
      INTERNAL_TIMEOUT_MS: '60000',
      RESERVING_TIMEOUT_MS: '150000',
    },
    'BENCH API',
  );
  try {
    await platform.ready;
    const images = await runBatch(`http://127.0.0.1:${apiPort}`, products, 'embedded (one process)');
    console.log(`  embedded platform: ${usage(platform.child.pid, images)}`);
  } finally {
    await stopProcess(platform);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function rabbitmqctl(args) {
  for (const command of ['rabbitmqctl', '/usr/sbin/rabbitmqctl']) {
    try {
      execFileSync(command, ['-q', ...args], { stdio: 'pipe' });
      return;
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
  }
  throw new Error('rabbitmqctl is needed for the distributed run (a throwaway virtual host)');
}

/** Distributed mode: every service its own process on real RabbitMQ. */
async function distributed(products) {
  const amqpUrl = process.env.AMQP_URL;
  if (!amqpUrl) {
    console.log('\ndistributed: skipped (set AMQP_URL to a RabbitMQ to run it)');
    return;
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'productgen-bench-bulk-'));
  const { startEmbeddedMongo } = require(path.join(root, 'packages/embedded-mongo/dist/index.js'));
  const { startEmbeddedS3 } = require(path.join(root, 'packages/embedded-s3/dist/index.js'));
  const vhost = `productgen-bench-bulk-${randomBytes(4).toString('hex')}`;
  rabbitmqctl(['add_vhost', vhost]);
  const url = new URL(amqpUrl);
  rabbitmqctl(['set_permissions', '-p', vhost, decodeURIComponent(url.username) || 'guest', '.*', '.*', '.*']);
  url.pathname = `/${encodeURIComponent(vhost)}`;
  const mongo = await startEmbeddedMongo({ dbPath: path.join(dataDir, 'mongo') });
  const s3 = await startEmbeddedS3({ dataDir: path.join(dataDir, 's3') });
  const ports = {};
  for (const name of ['auth', 'billing', 'generation', 'bulk', 'gateway']) ports[name] = await freePort();
  const at = (name) => `http://127.0.0.1:${ports[name]}`;
  const shared = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'error',
    METRICS_PORT: '0',
    MONGO_URL: mongo.url,
    AMQP_URL: url.toString(),
    DEV_IDENTITY_PROVIDER: 'true',
    // The services verify each other's signed identities (as scripts/distributed/start.mjs sets it up).
    SERVICE_AUTH_SECRET: randomBytes(32).toString('hex'),
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    AUTH_URL: at('auth'),
    BILLING_URL: at('billing'),
    GENERATION_URL: at('generation'),
    BULK_URL: at('bulk'),
    API_PUBLIC_URL: at('gateway'),
  };
  const processes = [];
  const start = async (name, script, env, readyLine) => {
    const started = startProcess(name, script, { ...shared, ...env }, readyLine);
    processes.push(started);
    await started.ready;
  };
  try {
    await start('billing', 'services/billing/dist/main.js', { PORT: String(ports.billing) });
    await start('auth', 'services/auth/dist/main.js', { PORT: String(ports.auth) });
    // Three processes run models on these 2 cores (the API analyses, two workers render), so each model run takes
    // one thread (INFERENCE_THREADS; unset, onnxruntime gives every run a thread per core: a 36-product batch took
    // 68.8 s against 64.3 s).
    await start('generation API', 'services/generation/dist/main.js', {
      PORT: String(ports.generation),
      GENERATION_WORKER: 'off',
      INFERENCE_THREADS: '1',
    });
    // Two workers share these 2 cores, so each takes one generation at a time (the default of 2 is for a worker
    // with the machine to itself; here it was 5 % slower on a 36-product batch: 126.9 s against 120.6 s).
    const worker = { LOG_LEVEL: 'info', WORKER_PREFETCH: '1', INFERENCE_THREADS: '1' };
    await start('worker 1', 'services/generation/dist/worker.js', worker, 'render worker running');
    await start('worker 2', 'services/generation/dist/worker.js', worker, 'render worker running');
    await start('bulk', 'services/bulk/dist/main.js', { PORT: String(ports.bulk) });
    await start('gateway', 'services/gateway/dist/main.js', {
      PORT: String(ports.gateway),
      API_PORT: String(ports.gateway),
    });
    const images = await runBatch(at('gateway'), products, 'distributed (RabbitMQ, 2 workers)');
    for (const running of processes) console.log(`    ${running.name}: ${usage(running.child.pid, images)}`);
    console.log(`    bench process (embedded MongoDB and S3): ${usage(process.pid, images)}`);
  } finally {
    for (const running of processes.reverse()) await stopProcess(running);
    await s3.stop();
    await mongo.stop();
    rabbitmqctl(['delete_vhost', vhost]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(describeCpu());
  if (process.env.BENCH_CHILD === 'embedded') return embeddedChild();
  const products = Number(option('products', '200'));
  const mode = option('mode', 'both');
  maxMinutes = Number(option('max-minutes', 'Infinity'));
  if (!(maxMinutes > 0)) throw new Error('--max-minutes must be a positive number');
  if (!Number.isInteger(products) || products < 1 || products > 200) throw new Error('--products must be 1 to 200');
  if (mode === 'embedded' || mode === 'both') await embedded(products);
  if (mode === 'distributed' || mode === 'both') await distributed(products);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
