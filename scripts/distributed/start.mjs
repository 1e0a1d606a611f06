#!/usr/bin/env node
// `npm run start:distributed`: the distributed deployment rehearsed on one machine. It reads docker-compose.yml and
// starts every service, worker and web host there as its own process, with the container's command and environment
// (the image's ENV, then the compose file's, with ${VAR:-default} filled from the environment). Only addresses are
// translated: each container port gets a free local port, host names become 127.0.0.1, and mounted paths become
// local folders. The infrastructure is local too: real RabbitMQ (AMQP_URL), and the embedded MongoDB
// (`npm run devstack:mongo`) and embedded S3 each started as a process of their own.
//   AMQP_URL=amqp://guest:guest@127.0.0.1:5672 npm run start:distributed -- [--scale generation-worker=2]
//       [--data-dir <dir>] [--free-ports]
// A container's cpu_shares becomes its process's niceness (the same CPU weight). It prints `distributed platform
// ready {"web": ..., "api": ...}` once every process is healthy; Ctrl-C stops all.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, parseEnv } from 'node:util';
import { createRequire } from 'node:module';
import YAML from 'yaml';

const require = createRequire(import.meta.url);
// A CommonJS build, whose exports Node's ESM loader cannot name: required instead of imported.
const { freePort, reservePort } = require('@productgen/service-kit/local-ports');
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** Provided by this machine instead of a container. */
const INFRASTRUCTURE = new Set(['mongo-keyfile', 'mongo', 'mongo-init', 'rabbitmq', 'minio', 'minio-init']);
/**
 * The passwords compose requires for its data stores. Here the stores are this machine's own (the embedded MongoDB
 * and S3 started below, the RabbitMQ of AMQP_URL, whose URL replaces the compose one), so when .env does not set
 * them they are made up for this run instead of stopping it.
 */
const LOCAL_STORE_PASSWORDS = ['MONGO_INITDB_ROOT_PASSWORD', 'RABBITMQ_PASSWORD', 'MINIO_ROOT_PASSWORD'];
/** Paths inside the images that hold files of the repository. */
const IMAGE_WORKDIR = '/app';
const IMAGE_SITE_DIR = '/app/site';

// ── reading the compose file ────────────────────────────────────────────────────────────────────────────────────

/**
 * `${VAR:-default}`, `${VAR-default}`, `${VAR:?message}`, `${VAR?message}`, `${VAR}` and `$$`, as compose
 * interpolates them (the `:` forms treat an empty value as unset). A required variable that is unset stops the
 * start with its message, as it stops compose.
 */
export function interpolate(text, env) {
  return String(text)
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (_match, name, operator, argument) => {
      const value = env[name];
      const unset = operator?.startsWith(':') ? value === undefined || value === '' : value === undefined;
      if (operator?.endsWith('-')) return unset ? argument : value;
      if (operator?.endsWith('?') && unset) {
        throw new Error(`${name}: ${argument || 'required variable is not set'}`);
      }
      return value ?? '';
    })
    .replaceAll('$$', '$');
}

/** The final stage's ENV of a Dockerfile, with its build args filled in. */
function imageEnvironment(dockerfile, buildArgs) {
  const { DockerfileParser } = require('dockerfile-ast');
  const instructions = DockerfileParser.parse(readFileSync(path.join(root, dockerfile), 'utf8')).getInstructions();
  const lastFrom = instructions.map((instruction) => instruction.getKeyword()).lastIndexOf('FROM');
  const env = {};
  for (const instruction of instructions.slice(lastFrom)) {
    if (instruction.getKeyword() !== 'ENV') continue;
    for (const property of instruction.getProperties()) {
      env[property.getName()] = interpolate(property.getValue() ?? '', buildArgs);
    }
  }
  return env;
}

/**
 * A container's `cpu_shares` as the niceness of its local process: both are the kernel's CPU weight (1024 at 0,
 * ×1.25 per step), so a process started this many steps nicer competes for the CPU as its container would.
 */
function nicenessForCpuShares(shares) {
  if (shares === undefined) return 0;
  return Math.min(19, Math.max(0, Math.round(Math.log(1024 / Number(shares)) / Math.log(1.25))));
}

function composeServices(composeFile, env) {
  const document = YAML.parse(readFileSync(composeFile, 'utf8'), { merge: true });
  const services = {};
  for (const [name, service] of Object.entries(document.services)) {
    if (service.profiles?.length) continue; // optional profiles (observability) are not part of the rehearsal
    const buildArgs = Object.fromEntries(
      Object.entries(service.build?.args ?? {}).map(([key, value]) => [key, interpolate(value, env)]),
    );
    services[name] = {
      name,
      build: service.build ? { ...service.build, args: buildArgs } : undefined,
      command: (service.command ?? []).map((part) => interpolate(part, env)),
      environment: {
        ...(service.build ? imageEnvironment(service.build.dockerfile, buildArgs) : {}),
        ...Object.fromEntries(
          Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(value ?? '', env)]),
        ),
      },
      ports: (service.ports ?? []).map((port) => String(port).split(':').map(Number)),
      volumes: (service.volumes ?? []).map((volume) => interpolate(volume, env).split(':')),
      dependsOn: Object.entries(service.depends_on ?? {}).map(([dependency, { condition }]) => ({
        name: dependency,
        condition,
      })),
      healthcheck: service.healthcheck?.test,
      oneShot: service.restart === 'no',
      niceness: nicenessForCpuShares(service.cpu_shares),
    };
  }
  return { services, volumes: Object.keys(document.volumes ?? {}) };
}

// ── local addresses ─────────────────────────────────────────────────────────────────────────────────────────────

// Ports are held from the start until the process that listens on them is spawned: a port merely found free and
// closed again could be taken by another process (another launcher, an outgoing connection) in the minute or two
// it takes to start everything before it.
const reservations = new Map();

async function reserve(preferred) {
  const reservation = await reservePort({ preferred });
  reservations.set(reservation.port, reservation);
  return reservation.port;
}

/** Frees held ports for the process about to listen on them. */
async function handOver(ports) {
  await Promise.all(ports.map((port) => reservations.get(port)?.release()));
}

/** Container ports a service listens on: its port variables and the ports named in its healthcheck. */
function containerPorts(service) {
  const ports = new Set();
  for (const key of ['PORT', 'API_PORT', 'METRICS_PORT']) {
    if (service.environment[key]) ports.add(Number(service.environment[key]));
  }
  for (const match of (service.healthcheck ?? []).join(' ').matchAll(/127\.0\.0\.1:(\d+)/g))
    ports.add(Number(match[1]));
  return [...ports];
}

/**
 * Rewrites one value for this machine: `<service>:<port>` → `127.0.0.1:<local port>`, a published
 * `localhost:<host port>` → the local port behind it, infrastructure URLs → the local infrastructure, and paths
 * under a mount → the local folder.
 */
function translate(value, context) {
  let text = value;
  // The compose URL carries the database's credentials; the local embedded server needs none.
  if (/^mongodb:\/\/([^@/]*@)?mongo[:/]/.test(text)) return context.mongoUrl;
  if (/^amqps?:\/\/(.*@)?rabbitmq[:/]/.test(text)) return context.amqpUrl;
  if (/^https?:\/\/minio[:/]/.test(text)) return context.s3Endpoint;
  text = text.replace(/\b([a-z][a-z0-9-]*):(\d+)\b/g, (match, host, port) => {
    const local = context.ports.get(`${host}:${port}`);
    return local ? `127.0.0.1:${local}` : match;
  });
  text = text.replace(/\b(localhost|127\.0\.0\.1):(\d+)\b/g, (match, host, port) => {
    const local = context.published.get(Number(port));
    return local ? `${host}:${local}` : match;
  });
  for (const [containerPath, localPath] of context.mounts) {
    if (text === containerPath || text.startsWith(`${containerPath}/`))
      return localPath + text.slice(containerPath.length);
  }
  return text;
}

// ── processes ───────────────────────────────────────────────────────────────────────────────────────────────────

const children = new Set();
let platformReady = false;
// A long-running process that ends before every process is ready fails the start at once (a port it could not
// bind, a crash while connecting), rather than leaving a platform with a hole in it.
let reportEarlyExit;
const earlyExit = new Promise((resolve, reject) => (reportEarlyExit = reject));
earlyExit.catch(() => undefined); // observed by main's race; never unhandled

function run(name, command, args, env, { onLine, infrastructure = false, oneShot = false, niceness = 0 } = {}) {
  // Through nice(1), so every thread the process starts has the weight, not only its first.
  const [file, argv] = niceness > 0 ? ['nice', ['-n', String(niceness), command, ...args]] : [command, args];
  const child = spawn(file, argv, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.infrastructure = infrastructure;
  child.processName = name;
  children.add(child);
  const prefix = `[${name}] `;
  let buffer = '';
  const forward = (chunk, stream) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop();
    for (const line of lines) {
      onLine?.(line);
      stream.write(`${prefix}${line}\n`);
    }
  };
  child.stdout.on('data', (chunk) => forward(chunk, process.stdout));
  child.stderr.on('data', (chunk) => forward(chunk, process.stderr));
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.exited.then(({ code, signal }) => {
    children.delete(child);
    if (!oneShot && !platformReady && !stopping) {
      reportEarlyExit(new Error(`${name} exited (${code ?? signal}) while the platform was starting`));
    }
  });
  return child;
}

function firstLine(name, command, args, env) {
  return new Promise((resolve, reject) => {
    const child = run(name, command, args, env, {
      onLine: (line) => resolve({ child, line }),
      infrastructure: true,
    });
    child.exited.then(({ code, signal }) =>
      reject(new Error(`${name} exited (${code ?? signal}) before it was ready`)),
    );
  });
}

async function waitUntil(what, check, child, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child?.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${what}: the process exited`);
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs the compose healthcheck command (CMD form) with this machine's addresses; true when it exits 0. */
function healthy(service, context, env) {
  const [form, command, ...args] = service.healthcheck;
  if (form !== 'CMD') throw new Error(`${service.name}: only CMD healthchecks are supported`);
  const executable = command === 'node' ? process.execPath : command;
  // The check runs inside the container, so 127.0.0.1:<port> is this service's own port.
  const ownPorts = (arg) =>
    arg.replace(/127\.0\.0\.1:(\d+)/g, (match, port) => {
      const local = context.ports.get(`${service.name}:${port}`);
      return local ? `127.0.0.1:${local}` : match;
    });
  return new Promise((resolve) => {
    const check = spawn(executable, args.map(ownPorts), { cwd: root, env, stdio: 'ignore' });
    check.once('exit', (code) => resolve(code === 0));
    check.once('error', () => resolve(false));
  });
}

/** Services and hosts drain first; the database and object store stop after them. */
async function stopAll() {
  const stop = (group) =>
    Promise.all(
      group.map(async (child) => {
        const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.kill('SIGTERM');
        await child.exited;
        clearTimeout(kill);
      }),
    );
  await stop([...children].filter((child) => !child.infrastructure));
  await stop([...children]);
}

// ── main ────────────────────────────────────────────────────────────────────────────────────────────────────────

async function main() {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', multiple: true, default: [] },
      'data-dir': { type: 'string' },
      compose: { type: 'string', default: path.join(root, 'docker-compose.yml') },
      // Tests: never try the published host ports (3000, 8080), which another process may take meanwhile.
      'free-ports': { type: 'boolean', default: false },
    },
  });
  const amqpUrl = process.env.AMQP_URL;
  if (!amqpUrl) throw new Error('AMQP_URL is required: the URL of a running RabbitMQ (amqp://user:pass@host:5672)');
  const scale = Object.fromEntries(values.scale.map((entry) => entry.split('=')).map(([name, n]) => [name, Number(n)]));
  const dataDir = path.resolve(values['data-dir'] ?? mkdtempSync(path.join(os.tmpdir(), 'productgen-distributed-')));
  // Like compose, variables come from the environment first, then from .env (here: .env.example when there is none).
  const envFile = [path.join(root, '.env'), path.join(root, '.env.example')].find((file) => existsSync(file));
  const env = { ...(envFile ? parseEnv(readFileSync(envFile, 'utf8')) : {}), ...process.env };
  for (const name of LOCAL_STORE_PASSWORDS) env[name] ||= randomBytes(24).toString('hex');
  // The processes of this run sign their calls to each other with one secret, made up per run unless .env sets it.
  env.SERVICE_AUTH_SECRET ||= randomBytes(32).toString('hex');
  const { services, volumes } = composeServices(values.compose, env);

  // Infrastructure: the embedded MongoDB and S3, each its own process.
  mkdirSync(path.join(dataDir, 'mongo'), { recursive: true });
  const mongoPort = await freePort(); // its process starts right away
  const mongo = await firstLine('mongo', process.execPath, [
    'packages/embedded-mongo/dist/cli.js',
    '--port',
    String(mongoPort),
    '--dbpath',
    path.join(dataDir, 'mongo'),
    '--quiet',
  ]);
  const minio = services.minio?.environment ?? {};
  const s3 = await firstLine('s3', process.execPath, [
    'scripts/distributed/embedded-s3.mjs',
    '--dir',
    path.join(dataDir, 's3'),
    '--access-key',
    minio.MINIO_ROOT_USER ?? 'S3RVER',
    '--secret-key',
    minio.MINIO_ROOT_PASSWORD ?? 'S3RVER',
  ]);

  // Every container port of every service gets a local port; published ones keep their host port when it is free.
  const context = {
    mongoUrl: mongo.line.trim(),
    amqpUrl,
    s3Endpoint: JSON.parse(s3.line).endpoint,
    ports: new Map(),
    published: new Map(),
    mounts: new Map(),
  };
  const started = Object.values(services).filter((service) => !INFRASTRUCTURE.has(service.name));
  for (const service of started) {
    for (const port of containerPorts(service)) {
      const hostPort = service.ports.find(([, container]) => container === port)?.[0];
      const local = await reserve(values['free-ports'] ? undefined : hostPort);
      context.ports.set(`${service.name}:${port}`, local);
      if (hostPort) context.published.set(hostPort, local);
    }
  }
  for (const volume of volumes) mkdirSync(path.join(dataDir, 'volumes', volume), { recursive: true });

  /** The environment of one process: the container's, translated, plus PATH so `node` resolves. */
  function environmentOf(service, instance) {
    const ports = new Map(context.ports);
    const mounts = new Map([[IMAGE_SITE_DIR, path.join(root, service.build?.args.WORKSPACE ?? '', 'dist')]]);
    for (const [source, target] of service.volumes) {
      const local = volumes.includes(source) ? path.join(dataDir, 'volumes', source) : path.resolve(root, source);
      mounts.set(target, local);
    }
    // A scaled service's extra instances listen on ports of their own.
    if (instance.ports) for (const [key, port] of instance.ports) ports.set(key, port);
    const local = { ...context, ports, mounts };
    const env = { PATH: process.env.PATH, HOME: process.env.HOME };
    for (const [key, value] of Object.entries(service.environment)) {
      env[key] = key.endsWith('PORT')
        ? String(ports.get(`${service.name}:${value}`) ?? value)
        : translate(value, local);
    }
    return { env, context: local };
  }

  const ready = new Map();
  async function start(service) {
    if (ready.has(service.name)) return ready.get(service.name);
    const promise = (async () => {
      for (const dependency of service.dependsOn) {
        if (INFRASTRUCTURE.has(dependency.name)) continue;
        await start(services[dependency.name]);
      }
      const entry = service.command[1];
      if (entry && !existsSync(path.join(root, entry))) {
        throw new Error(`${service.name}: ${entry} is missing (run npm run build)`);
      }
      const instances = Math.max(1, scale[service.name] ?? 1);
      for (let index = 0; index < instances; index += 1) {
        const instance = { ports: index === 0 ? undefined : new Map() };
        if (instance.ports) {
          for (const port of containerPorts(service)) instance.ports.set(`${service.name}:${port}`, await reserve());
        }
        const { env, context: local } = environmentOf(service, instance);
        const name = instances > 1 ? `${service.name}-${index + 1}` : service.name;
        const [command, ...args] = service.command;
        await handOver(containerPorts(service).map((port) => local.ports.get(`${service.name}:${port}`)));
        const child = run(name, command === 'node' ? process.execPath : command, args, env, {
          oneShot: service.oneShot,
          niceness: service.niceness,
        });
        if (service.oneShot) {
          const { code } = await child.exited;
          if (code !== 0) throw new Error(`${name} failed (exit ${code})`);
        } else if (service.healthcheck) {
          await waitUntil(`${name} healthy`, () => healthy(service, local, env), child);
        }
      }
    })();
    ready.set(service.name, promise);
    return promise;
  }
  await Promise.race([Promise.all(started.map((service) => start(service))), earlyExit]);
  platformReady = true;

  const urlOf = (service, port) => `http://127.0.0.1:${context.ports.get(`${service}:${port}`)}`;
  const summary = {
    web: urlOf('shell', Number(services.shell.environment.PORT)),
    api: urlOf('gateway', Number(services.gateway.environment.API_PORT)),
    dataDir,
    processes: [...children].length,
    // For fault tests: which process to kill, and where the data is (as the containers' volumes would be).
    pids: Object.fromEntries([...children].map((child) => [child.processName, child.pid])),
    mongoUrl: context.mongoUrl,
    s3: {
      endpoint: context.s3Endpoint,
      accessKey: minio.MINIO_ROOT_USER ?? 'S3RVER',
      secretKey: minio.MINIO_ROOT_PASSWORD ?? 'S3RVER',
    },
  };
  console.log(`distributed platform ready ${JSON.stringify(summary)}`);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return; // already stopping everything
    stopping = true;
    stopAll().then(() => process.exit(0));
  });
}
main().catch(async (error) => {
  if (!stopping) console.error(`start:distributed failed: ${error.message}`);
  await stopAll();
  process.exit(1);
});
