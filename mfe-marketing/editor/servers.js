'use strict';
// The two servers of the content editor (serve.js listens with them; the tests start them on free ports): the
// editor page and Decap's local file-system backend, which writes into the working tree.
//
// Both answer only requests addressed to a loopback name. Listening on 127.0.0.1 keeps other machines out, but not
// a web page: a page on any site can point its own host name at 127.0.0.1 (DNS rebinding) and then post to the
// backend as a same-origin page, with its own name in Host. A loopback Host (and, when a browser sends one, a
// loopback Origin) is what such a page cannot forge.
//
// The backend reads and writes only under mfe-marketing/content (the pages and their media folder). decap-server's
// own check keeps paths inside the repository, which would still let any request rewrite the code, the build
// scripts or .env.

const path = require('node:path');
const express = require('express');

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The host name of a Host header or an origin (`name[:port]`, IPv6 in brackets), lower-cased. */
function hostName(hostAndPort) {
  return /^(\[[^\]]*\]|[^:]*)/.exec(hostAndPort.toLowerCase())[1];
}

function isLoopbackOrigin(origin) {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.has(hostName(url.host));
  } catch {
    return false; // `null` (a sandboxed frame, a file) and anything unparsable
  }
}

/** Refuses a request not addressed to a loopback name, or sent by a page of another origin. */
function loopbackOnly(req, res, next) {
  const host = req.headers.host ?? '';
  if (!LOOPBACK_NAMES.has(hostName(host))) {
    res.status(403).json({ error: `The editor answers only at localhost or 127.0.0.1, not at "${host}".` });
    return;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin)) {
    res.status(403).json({ error: `The editor answers only its own pages, not pages of "${origin}".` });
    return;
  }
  next();
}

/** Keys of Decap's backend calls (any action) that name a file or a folder of the repository. */
const PATH_KEYS = new Set(['path', 'newPath', 'folder', 'mediaFolder']);

/** Every path a backend call names, wherever in its parameters (entries, data files, assets, `paths` lists). */
function namedPaths(value, key, found = []) {
  if (typeof value === 'string') {
    if (PATH_KEYS.has(key) || key === 'paths') found.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) namedPaths(item, key, found);
  } else if (value && typeof value === 'object') {
    for (const [childKey, child] of Object.entries(value)) namedPaths(child, childKey, found);
  }
  return found;
}

/** Refuses a backend call naming a path outside `contentDir` (paths are relative to the repository). */
function contentOnly(repoRoot, contentDir) {
  const shown = path.relative(repoRoot, contentDir);
  return (req, res, next) => {
    const outside = namedPaths(req.body?.params, 'params').find((named) => {
      const relative = path.relative(contentDir, path.resolve(repoRoot, named));
      return relative.startsWith('..') || path.isAbsolute(relative);
    });
    if (outside !== undefined) {
      res.status(403).json({ error: `The editor reads and writes only under ${shown}: "${outside}" is outside it.` });
      return;
    }
    next();
  };
}

/**
 * Decap's local backend (decap-server in file-system mode) over `repoRoot`, confined to `contentDir`.
 * decap-server reads its repository and allowed origin from the environment when its routes are registered.
 */
async function createEditorBackend({ repoRoot, contentDir, editorOrigin, logLevel = 'warn' }) {
  const { registerLocalFs } = require('decap-server/dist/middlewares');
  // decap-server's routes are written for its own Express (4, with body-parser 1), so its app is made with that one.
  const decapExpress = require(require.resolve('express', { paths: [require.resolve('decap-server')] }));
  process.env.GIT_REPO_DIRECTORY = repoRoot;
  process.env.ORIGIN = editorOrigin;
  const app = decapExpress();
  app.disable('x-powered-by');
  app.use(loopbackOnly);
  // Parsed here by the same parser decap-server registers (which then leaves the body as it is), so the paths are
  // checked before any of its routes runs.
  app.post('/api/v1', decapExpress.json({ limit: '50mb' }), contentOnly(repoRoot, contentDir));
  await registerLocalFs(app, { logLevel });
  return app;
}

/** The editor page, Decap's script and its config (with the local backend's address). */
function createEditorApp({ config, decapDir, indexFile }) {
  const app = express();
  app.disable('x-powered-by');
  app.use(loopbackOnly);
  app.get('/config.yml', (_req, res) => res.type('text/yaml').send(config));
  app.use('/decap', express.static(decapDir));
  app.get('/', (_req, res) => res.sendFile(indexFile));
  return app;
}

module.exports = { createEditorApp, createEditorBackend };
