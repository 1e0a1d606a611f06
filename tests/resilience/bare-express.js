// The reference the gateway's overhead is measured against: a bare Express app in a process of its own (as the
// gateway runs in its own), answering a body of the size /auth/me answers. Prints its origin, stops on SIGTERM.
const express = require('express');

const app = express();
const body = JSON.stringify({ id: 'u'.repeat(24), email: 'load@example.com', credits: 100, settings: {} });
app.get('/auth/me', (_request, response) => response.type('json').send(body));
const server = app.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
