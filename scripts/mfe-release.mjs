#!/usr/bin/env node
// The microfrontend release path: publish a version next to the live one, switch one registry entry to it, and
// roll back by switching the entry back. The shell host re-reads the registry on every request, so nothing else
// restarts; each version is its own Deployment and Service (mfe-<name>-v<version>), immutable once published.
//
//   node scripts/mfe-release.mjs publish <name> <version> [--image <ref>] [--dry-run]
//       applies mfe-<name>-v<version> (ServiceAccount, Deployment, Service, PodDisruptionBudget) to the cluster;
//       --dry-run prints the manifests instead
//   node scripts/mfe-release.mjs switch <name> <version> [--file <remotes.json>]
//       points the registry entry mfe_<name> at that version: the web-registry ConfigMap of the cluster, or a
//       registry file (docker/web/remotes.json for compose, .data/web/remotes.json for npm start)
//   node scripts/mfe-release.mjs retire <name> <version>
//       deletes a version the registry no longer points at
// Roll back: `switch <name> <previous version>` (switch prints the version it replaced).
// Options: --namespace <ns> (default productgen), --context <kube context>.
import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import YAML from 'yaml';
import { MICROFRONTENDS, microfrontendWorkload, renderWorkload } from './k8s/workloads.mjs';

const VERSION_PATTERN = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

export const manifestPath = (name, version) => `/mfe/${name}/${version}/mf-manifest.json`;

function checkTarget(name, version) {
  if (!MICROFRONTENDS.includes(name)) {
    throw new Error(`unknown microfrontend "${name}"; expected one of ${MICROFRONTENDS.join(', ')}`);
  }
  if (!VERSION_PATTERN.test(version)) throw new Error(`"${version}" is not a version such as 1.4.0`);
}

/** The registry with one entry changed; the entry it replaced. */
export function switchEntry(registry, name, version) {
  checkTarget(name, version);
  const key = `mfe_${name}`;
  return { registry: { ...registry, [key]: manifestPath(name, version) }, previous: registry[key] ?? null };
}

/** The manifests of one published version, as YAML. */
export function versionManifests(name, version, image) {
  checkTarget(name, version);
  return renderWorkload(microfrontendWorkload(name, version, image))
    .map((object) => YAML.stringify(object, { lineWidth: 0, aliasDuplicateObjects: false }))
    .join('---\n');
}

const versionOf = (path) => /^\/mfe\/[^/]+\/([^/]+)\//.exec(path ?? '')?.[1] ?? null;

function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      image: { type: 'string' },
      file: { type: 'string' },
      namespace: { type: 'string', default: 'productgen' },
      context: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
    },
  });
  const [command, name, version] = positionals;
  if (!['publish', 'switch', 'retire'].includes(command) || !name || !version) {
    throw new Error('usage: mfe-release.mjs publish|switch|retire <name> <version> [options]');
  }
  const kubectl = (args, input) =>
    execFileSync(
      'kubectl',
      [...(values.context ? ['--context', values.context] : []), '--namespace', values.namespace, ...args],
      { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'inherit'] },
    );

  if (command === 'publish') {
    const manifests = versionManifests(name, version, values.image);
    if (values['dry-run']) process.stdout.write(manifests);
    else {
      process.stdout.write(kubectl(['apply', '-f', '-'], manifests));
      kubectl(['rollout', 'status', `deployment/mfe-${name}-v${version.replaceAll('.', '-')}`, '--timeout=180s']);
      console.log(`published ${name} ${version}; make it live with: switch ${name} ${version}`);
    }
    return;
  }

  if (command === 'switch') {
    if (values.file) {
      const { registry, previous } = switchEntry(JSON.parse(readFileSync(values.file, 'utf8')), name, version);
      // Write-then-rename: the shell host never reads half a file.
      writeFileSync(`${values.file}.tmp`, `${JSON.stringify(registry, null, 2)}\n`);
      renameSync(`${values.file}.tmp`, values.file);
      console.log(`mfe_${name}: ${versionOf(previous) ?? '(none)'} → ${version}`);
      return;
    }
    // The version must be running before the registry points at it.
    kubectl(['get', 'service', `mfe-${name}-v${version.replaceAll('.', '-')}`, '-o', 'name']);
    const configMap = JSON.parse(kubectl(['get', 'configmap', 'web-registry', '-o', 'json']));
    const current = JSON.parse(configMap.data['remotes.json']);
    const { registry, previous } = switchEntry(current, name, version);
    const patch = { data: { 'remotes.json': `${JSON.stringify(registry, null, 2)}\n` } };
    kubectl(['patch', 'configmap', 'web-registry', '--type', 'merge', '-p', JSON.stringify(patch)]);
    console.log(
      `mfe_${name}: ${versionOf(previous) ?? '(none)'} → ${version} (the shell host sees it once the kubelet ` +
        `refreshes the mounted ConfigMap, within about a minute); roll back with: switch ${name} ${versionOf(previous)}`,
    );
    return;
  }

  const configMap = JSON.parse(kubectl(['get', 'configmap', 'web-registry', '-o', 'json']));
  if (JSON.parse(configMap.data['remotes.json'])[`mfe_${name}`] === manifestPath(name, version)) {
    throw new Error(`${name} ${version} is live: switch to another version before retiring it`);
  }
  const label = `app.kubernetes.io/name=mfe-${name}-v${version.replaceAll('.', '-')}`;
  process.stdout.write(kubectl(['delete', 'deployment,service,serviceaccount,poddisruptionbudget', '-l', label]));
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  try {
    main();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
