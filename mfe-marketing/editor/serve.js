'use strict';
// `npm run editor -w @productgen/mfe-marketing`: the content editor (Decap CMS) for the marketing team on this
// machine. Decap's local backend (decap-server, file-system mode) reads and writes mfe-marketing/content (the pages
// and their media) in this working tree and nothing else; the editor page is served next to it. Both listen on
// loopback only and answer only requests addressed to a loopback name (servers.js says why), and the command refuses
// to run with NODE_ENV=production: in production there is no editor without a Git host's authentication (see README).

const path = require('node:path');
const fs = require('node:fs');
const { createEditorApp, createEditorBackend } = require('./servers');

const appDir = path.resolve(__dirname, '..');
const EDITOR_PORT = Number(process.env.EDITOR_PORT || 3100);
const BACKEND_PORT = Number(process.env.EDITOR_BACKEND_PORT || 8081);
const HOST = '127.0.0.1';

if (process.env.NODE_ENV === 'production') {
  console.error('The content editor runs only in development: it writes files without asking anyone to sign in.');
  process.exit(1);
}

async function main() {
  const contentDir = path.join(appDir, 'content');
  const backend = await createEditorBackend({
    repoRoot: path.resolve(appDir, '..'),
    contentDir,
    editorOrigin: `http://${HOST}:${EDITOR_PORT}`,
    logLevel: process.env.EDITOR_LOG_LEVEL || 'warn',
  });
  backend.listen(BACKEND_PORT, HOST);

  const config = fs
    .readFileSync(path.join(__dirname, 'config.yml'), 'utf8')
    .concat(`\nlocal_backend:\n  url: http://${HOST}:${BACKEND_PORT}/api/v1\n`);
  const editor = createEditorApp({
    config,
    decapDir: path.dirname(require.resolve('decap-cms-app')),
    indexFile: path.join(__dirname, 'index.html'),
  });
  editor.listen(EDITOR_PORT, HOST, () => {
    console.log(`Content editor: http://${HOST}:${EDITOR_PORT}/ (files in ${contentDir})`);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
