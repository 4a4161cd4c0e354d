// A local SMTP server for the e2e run, started by playwright.config.ts as a web server before
// Tally (whose SMTP_URL points at it): it takes every mail Tally sends and keeps it in memory for
// the specs, which read it over a loopback HTTP endpoint. No mail leaves the machine.
//
//   SMTP on 127.0.0.1:E2E_SMTP_PORT (3102), plain (no STARTTLS), user and password required
//   GET /health                204
//   GET /messages?to=<address> [{to, from, subject, text, html, receivedAt}], oldest first
//
// Env: E2E_SMTP_PORT (3102), E2E_MAILBOX_PORT (3103), E2E_SMTP_USER, E2E_SMTP_PASSWORD.
import { createServer } from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const host = '127.0.0.1';
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 3102);
const httpPort = Number(process.env.E2E_MAILBOX_PORT ?? 3103);
const user = process.env.E2E_SMTP_USER ?? 'tally';
const password = process.env.E2E_SMTP_PASSWORD ?? 'e2e-smtp-password';

/** @type {{to: string[], from: string, subject: string, text: string, html: string, receivedAt: string}[]} */
const received = [];

const smtp = new SMTPServer({
  disabledCommands: ['STARTTLS'],
  allowInsecureAuth: true,
  logger: false,
  onAuth(auth, _session, callback) {
    if (auth.username === user && auth.password === password) callback(null, { user });
    else callback(new Error('Invalid username or password'));
  },
  onData(stream, session, callback) {
    simpleParser(stream).then(
      (mail) => {
        received.push({
          to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          subject: mail.subject ?? '',
          text: mail.text ?? '',
          html: typeof mail.html === 'string' ? mail.html : '',
          receivedAt: new Date().toISOString(),
        });
        callback();
      },
      (error) => callback(error),
    );
  },
});

function send(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

const mailbox = createServer((request, response) => {
  const url = new URL(request.url ?? '/', `http://${host}:${httpPort}`);
  if (request.method === 'GET' && url.pathname === '/health') return send(response, 204);
  if (request.method === 'GET' && url.pathname === '/messages') {
    const to = url.searchParams.get('to')?.toLowerCase();
    return send(response, 200, to ? received.filter((mail) => mail.to.includes(to)) : received);
  }
  return send(response, 404, { error: 'Not found' });
});

smtp.listen(smtpPort, host, () => {
  mailbox.listen(httpPort, host, () =>
    console.log(`local SMTP on ${host}:${smtpPort}, mailbox on http://${host}:${httpPort}`),
  );
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    mailbox.close();
    smtp.close(() => process.exit(0));
  });
}
