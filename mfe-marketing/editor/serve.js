'use strict';
// `npm run editor -w @productgen/mfe-marketing`: the content editor (Decap CMS) for the marketing team on this
// machine. Decap's local backend (decap-server, file-system mode) reads and writes mfe-marketing/content/*.md in this
// working tree; the editor page is served next to it. Both listen on loopback only, and the command refuses to run
// with NODE_ENV=production: in production there is no editor without a Git host's authentication (see README).

const path = require('node:path');
const fs = require('node:fs');
const express = require('express');

const appDir = path.resolve(__dirname, '..');
const repoRoot = path.resolve(appDir, '..');
const EDITOR_PORT = Number(process.env.EDITOR_PORT || 3100);
const BACKEND_PORT = Number(process.env.EDITOR_BACKEND_PORT || 8081);
const HOST = '127.0.0.1';

if (process.env.NODE_ENV === 'production') {
  console.error('The content editor runs only in development: it writes files without asking anyone to sign in.');
  process.exit(1);
}

// decap-server starts listening when it is loaded and reads its settings from the environment.
Object.assign(process.env, {
  PORT: String(BACKEND_PORT),
  BIND_HOST: HOST,
  MODE: 'fs',
  GIT_REPO_DIRECTORY: repoRoot,
  ORIGIN: `http://${HOST}:${EDITOR_PORT}`,
  LOG_LEVEL: process.env.EDITOR_LOG_LEVEL || 'warn',
});
require('decap-server');

const config = fs
  .readFileSync(path.join(__dirname, 'config.yml'), 'utf8')
  .concat(`\nlocal_backend:\n  url: http://${HOST}:${BACKEND_PORT}/api/v1\n`);

const app = express();
app.disable('x-powered-by');
app.get('/config.yml', (_req, res) => res.type('text/yaml').send(config));
app.use('/decap', express.static(path.join(path.dirname(require.resolve('decap-cms-app')))));
app.get('/', (_req, res) => res.sendFile(path.join(__dirname, 'index.html')));
app.listen(EDITOR_PORT, HOST, () => {
  console.log(`Content editor: http://${HOST}:${EDITOR_PORT}/ (files in ${path.join(appDir, 'content')})`);
});
