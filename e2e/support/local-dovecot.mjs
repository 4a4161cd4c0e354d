// Dovecot from Debian (dovecot-imapd) for the e2e run, started by playwright.config.ts as a web
// server before Tally (whose INBOX_IMAP_URL points at it), with a throwaway configuration in a
// temporary folder: plain IMAP on loopback, one user in a passwd-file. The machine's own Dovecot
// configuration is never read. Specs deliver mail over a loopback HTTP endpoint (IMAP APPEND).
//
//   IMAP on 127.0.0.1:E2E_IMAP_PORT (3106)
//   GET  /health    204 once Dovecot answers
//   POST /deliver   the raw message as the body; 204 once appended to INBOX
//
// Env: E2E_IMAP_PORT (3106), E2E_DELIVERY_PORT (3107), E2E_IMAP_USER, E2E_IMAP_PASSWORD.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';

const host = '127.0.0.1';
const imapPort = Number(process.env.E2E_IMAP_PORT ?? 3106);
const httpPort = Number(process.env.E2E_DELIVERY_PORT ?? 3107);
const user = process.env.E2E_IMAP_USER ?? 'tally';
const password = process.env.E2E_IMAP_PASSWORD ?? 'e2e-imap-password';

const dir = mkdtempSync(path.join(tmpdir(), 'tally-e2e-dovecot-'));
// As root, Dovecot runs its processes as its own users; as anyone else, as that user.
const root = process.getuid?.() === 0;
const me = userInfo().username;
for (const folder of ['run', 'state', 'mail']) mkdirSync(path.join(dir, folder));
writeFileSync(path.join(dir, 'passwd'), `${user}:{PLAIN}${password}::::::\n`, { mode: 0o600 });
if (root) {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('dovecot:'));
  const [, , uid, gid] = (line ?? '').split(':');
  chmodSync(dir, 0o711);
  chownSync(path.join(dir, 'mail'), Number(uid), Number(gid));
  chownSync(path.join(dir, 'passwd'), Number(uid), Number(gid));
}
const mailUser = root ? 'dovecot' : me;
writeFileSync(
  path.join(dir, 'dovecot.conf'),
  `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = ${host}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${dir}/mail/%u
first_valid_uid = 1
default_internal_user = ${root ? 'dovecot' : me}
default_login_user = ${root ? 'dovenull' : me}
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${mailUser} gid=${mailUser} home=${dir}/mail/%u
}
namespace inbox {
  inbox = yes
  separator = /
}
service imap-login {
  inet_listener imap {
    address = ${host}
    port = ${imapPort}
  }
  inet_listener imaps {
    port = 0
  }
}
service stats {
  unix_listener stats-reader {
    mode = 0600
  }
  unix_listener stats-writer {
    mode = 0600
  }
}
`,
);
const dovecot = spawn('/usr/sbin/dovecot', ['-F', '-c', path.join(dir, 'dovecot.conf')], {
  stdio: 'inherit',
});

const session = async (work) => {
  const client = new ImapFlow({
    host,
    port: imapPort,
    secure: false,
    auth: { user, pass: password },
    logger: false,
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.logout().catch(() => client.close());
  }
};

const http = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/health') {
    session(async () => undefined).then(
      () => response.writeHead(204).end(),
      () => response.writeHead(503).end(),
    );
    return;
  }
  if (request.method === 'POST' && request.url === '/deliver') {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      session((client) => client.append('INBOX', Buffer.concat(chunks))).then(
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
  dovecot.kill('SIGTERM');
  dovecot.once('exit', () => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
