// The stand-ins for ntfy, Gotify, Pushover and webhook receivers, started by playwright.config.ts
// as a web server before Tally: the very ones the API tests use (server/src/test/
// local-notify-receivers.ts, run with Node's type stripping), each taking only its service's
// documented publish request. A second loopback server lets the specs read what was received
// and give a webhook the signing secret Tally showed once.
//
// Env: E2E_RECEIVERS_PORT (3108), E2E_RECEIVERS_CONTROL_PORT (3109).
import { createServer } from 'node:http';
import { startLocalReceivers } from '../../server/src/test/local-notify-receivers.ts';

const receivers = await startLocalReceivers(Number(process.env.E2E_RECEIVERS_PORT ?? 3108));

const control = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const hook = /^\/secrets\/([a-z0-9-]+)$/.exec(url.pathname)?.[1];
    if (request.method === 'GET' && url.pathname === '/health') {
      response.writeHead(204).end();
    } else if (request.method === 'GET' && url.pathname === '/received') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          received: receivers.received.map(({ service, path, fields }) => ({
            service,
            path,
            fields,
          })),
          refused: receivers.refused,
        }),
      );
    } else if (request.method === 'PUT' && hook) {
      receivers.setSecret(hook, Buffer.concat(chunks).toString('utf8'));
      response.writeHead(204).end();
    } else {
      response.writeHead(404).end();
    }
  });
});
control.listen(Number(process.env.E2E_RECEIVERS_CONTROL_PORT ?? 3109), '127.0.0.1');
console.log(`local notification receivers at ${receivers.origin}`);
