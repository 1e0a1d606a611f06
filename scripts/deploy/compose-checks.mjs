// The rules of scripts/deploy/validate.mjs for the compose file beyond its schema: resource limits and log
// rotation, what is published to the network, secrets without fallbacks, MongoDB's access control, the dev identity
// provider in the example environment, and where the models come from. Each returns one line per problem.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { modelsImageTag } from '../docker/models-image.mjs';
import { isModelsImage, MODEL_DOWNLOADER } from './kubernetes-checks.mjs';

const LOOPBACK = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);
/** Variables holding a secret: passwords, keys, tokens. */
const SECRET_NAME = /PASS(WORD)?$|SECRET|TOKEN|_KEY$/;

/** A value required from the environment: `${VAR:?message}` stops compose when VAR is unset. */
const isRequiredFromEnv = (value) => /^\$\{[A-Za-z0-9_]+:\?[^}]+\}$/.test(String(value ?? ''));

const dependenciesOf = (service) => (Array.isArray(service.depends_on) ? {} : (service.depends_on ?? {}));

/** Every container has a memory limit (one leaking process cannot take the host) and rotated logs. */
export function limitRules(services) {
  const problems = [];
  for (const [name, service] of Object.entries(services)) {
    if (!service.mem_limit && !service.deploy?.resources?.limits?.memory) {
      problems.push(`/services/${name}: no memory limit (mem_limit or deploy.resources.limits.memory)`);
    }
    const { driver, options = {} } = service.logging ?? {};
    if (!['json-file', 'local'].includes(driver) || !options['max-size'] || !options['max-file']) {
      problems.push(`/services/${name}: logs are not rotated (logging: json-file with max-size and max-file)`);
    }
  }
  return problems;
}

/** The host address of a published port, short (`[ip:]host:container`) or long syntax; all interfaces when none. */
function hostAddress(port) {
  if (typeof port === 'object') return port.host_ip;
  const parts = String(port).split(':');
  return parts.length >= 3 ? parts.slice(0, -2).join(':') : undefined;
}

/**
 * Only the project's own entry points (the images built here) are published to the network; the data stores and
 * tools, whose own authentication is all that guards them, are published on the loopback interface only.
 */
export function exposureRules(services) {
  const problems = [];
  for (const [name, service] of Object.entries(services)) {
    if (service.build) continue;
    for (const port of service.ports ?? []) {
      if (!LOOPBACK.has(hostAddress(port))) {
        problems.push(
          `/services/${name}: port ${JSON.stringify(port)} is published on every interface: bind 127.0.0.1`,
        );
      }
    }
  }
  return problems;
}

/**
 * A secret never has a fallback value in the compose file (everyone who reads the repository knows it), and the
 * data stores' passwords are required: `${VAR:?message}` stops compose when .env does not set them.
 */
export function secretRules(text, services) {
  const problems = [];
  for (const match of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(:?-)([^}]*)\}/g)) {
    const [expression, variable, , fallback] = match;
    if (SECRET_NAME.test(variable) && fallback !== '') {
      problems.push(`${expression}: a secret with a fallback value; require it with \${${variable}:?message}`);
    }
  }
  for (const [name, service] of Object.entries(services)) {
    if (service.build) continue;
    for (const [variable, value] of Object.entries(service.environment ?? {})) {
      if (/PASS(WORD)?$/.test(variable) && !isRequiredFromEnv(value)) {
        problems.push(`/services/${name}: ${variable} must be required from .env (\${VAR:?message})`);
      }
    }
  }
  return problems;
}

/**
 * MongoDB runs with access control, as production's does: the server (a mongo image running mongod) creates its
 * root user from required variables (so it runs with --auth), a replica set has the key file its members
 * authenticate with (mongod refuses access control on a replica set without one), and every MONGO_URL signs in.
 * Without it anything that reaches the port or the compose network reads and changes every service's data.
 */
export function mongoAuthRules(services) {
  const problems = [];
  for (const [name, service] of Object.entries(services)) {
    const command = (service.command ?? []).map(String);
    if (/^mongo(:|@|$)/.test(service.image ?? '') && command[0] === 'mongod') {
      const env = service.environment ?? {};
      // The image also reads each from a secret file (`<VAR>_FILE`).
      const credential = (variable) => isRequiredFromEnv(env[variable]) || env[`${variable}_FILE`] !== undefined;
      if (!credential('MONGO_INITDB_ROOT_USERNAME') || !credential('MONGO_INITDB_ROOT_PASSWORD')) {
        problems.push(
          `/services/${name}: MongoDB runs without authentication: require MONGO_INITDB_ROOT_USERNAME and ` +
            'MONGO_INITDB_ROOT_PASSWORD from .env (${VAR:?message})',
        );
      }
      if (command.includes('--replSet') && !command.includes('--keyFile')) {
        problems.push(`/services/${name}: a replica set with authentication needs --keyFile`);
      }
    }
    const mongoUrl = service.environment?.MONGO_URL;
    if (mongoUrl !== undefined && !/^mongodb(\+srv)?:\/\/[^@/:]+:[^@/]+@/.test(String(mongoUrl))) {
      problems.push(`/services/${name}: MONGO_URL has no credentials (mongodb://user:password@host/?authSource=admin)`);
    }
  }
  return problems;
}

/**
 * The example environment, copied as it is, must not open the dev identity provider (anyone signs in as anybody)
 * on a gateway that other machines reach.
 */
export function exampleEnvironmentRules(composeFile, services) {
  const example = path.join(path.dirname(composeFile), '.env.example');
  if (!existsSync(example)) return [];
  const env = parseEnv(readFileSync(example, 'utf8'));
  if (env.DEV_IDENTITY_PROVIDER !== 'true') return [];
  return Object.entries(services)
    .filter(
      ([, service]) =>
        'DEV_IDENTITY_PROVIDER' in (service.environment ?? {}) &&
        (service.ports ?? []).some((port) => !LOOPBACK.has(hostAddress(port))),
    )
    .map(
      ([name]) =>
        `${example}: DEV_IDENTITY_PROVIDER=true while /services/${name} is published on every interface: ` +
        `leave it off in the example`,
    );
}

/**
 * No container downloads its models when it starts: a service with MODELS_DIR mounts the models volume read-only,
 * and a one-shot container of the models image built from this manifest has filled it first.
 */
export function modelRules(services) {
  const problems = [];
  const volumeAt = (service, target) =>
    (service.volumes ?? []).map((volume) => String(volume).split(':')).find(([, mounted]) => mounted === target);
  for (const [name, service] of Object.entries(services)) {
    if ((service.command ?? []).some((part) => MODEL_DOWNLOADER.test(part))) {
      problems.push(`/services/${name}: downloads the models when it starts`);
    }
    // The container that fills the volume: its image must be the one built from this manifest.
    if (/\/models[:@]/.test(service.image ?? '')) {
      if (!isModelsImage(service.image)) {
        problems.push(
          `/services/${name}: copies the models of ${service.image}, not of this manifest (models:${modelsImageTag()})`,
        );
      }
      continue;
    }
    const modelsDir = service.environment?.MODELS_DIR;
    if (!modelsDir) continue;
    const volume = volumeAt(service, modelsDir);
    if (!volume) {
      problems.push(`/services/${name}: MODELS_DIR ${modelsDir} is no volume, so the models would have to be fetched`);
      continue;
    }
    if (volume[2] !== 'ro') problems.push(`/services/${name}: the models volume must be mounted read-only (:ro)`);
    const filled = Object.entries(dependenciesOf(service)).some(([dependency, { condition }]) => {
      const filler = services[dependency];
      return (
        condition === 'service_completed_successfully' &&
        isModelsImage(filler?.image) &&
        (filler.volumes ?? []).some((entry) => String(entry).split(':')[0] === volume[0])
      );
    });
    if (!filled) {
      problems.push(
        `/services/${name}: does not wait for a container of the models image (models:${modelsImageTag()}, built ` +
          `from models/manifest.json) to fill its volume "${volume[0]}"`,
      );
    }
  }
  return problems;
}
