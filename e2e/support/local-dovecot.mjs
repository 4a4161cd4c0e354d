// Dovecot for the e2e run, started by playwright.config.ts as a web server before Tally (whose
// INBOX_IMAP_URL points at it): the API tests' starter (server/src/test/local-dovecot.ts, read by
// Node with its types stripped) on fixed ports, and a loopback HTTP endpoint through which specs
// deliver mail (IMAP APPEND).
//
//   IMAP on 127.0.0.1:E2E_IMAP_PORT (3106)
//   GET  /health    204 once Dovecot answers
//   POST /deliver   the raw message as the body; 204 once appended to INBOX
//
// Env: E2E_IMAP_PORT (3106), E2E_DELIVERY_PORT (3107), E2E_IMAP_USER, E2E_IMAP_PASSWORD.
import { createServer } from 'node:http';
import { startLocalDovecot } from '../../server/src/test/local-dovecot.ts';

const host = '127.0.0.1';
const httpPort = Number(process.env.E2E_DELIVERY_PORT ?? 3107);
const dovecot = await startLocalDovecot({
  port: Number(process.env.E2E_IMAP_PORT ?? 3106),
  user: process.env.E2E_IMAP_USER ?? 'tally',
  password: process.env.E2E_IMAP_PASSWORD ?? 'e2e-imap-password',
});

const http = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/health') {
    // Started means answering: startLocalDovecot waits for its first IMAP session.
    response.writeHead(204).end();
    return;
  }
  if (request.method === 'POST' && request.url === '/deliver') {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      dovecot.append(Buffer.concat(chunks)).then(
        () => response.writeHead(204).end(),
        (error) => response.writeHead(500).end(String(error)),
      );
    });
    return;
  }
  response.writeHead(404).end();
});
http.listen(httpPort, host);

const stop = () => {
  http.close();
  void dovecot.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
