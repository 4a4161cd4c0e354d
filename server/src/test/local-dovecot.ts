import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';

/**
 * Dovecot from Debian (dovecot-imapd), started by the test on a loopback port with a throwaway
 * configuration in a temporary folder: plain IMAP over loopback, one mailbox user in a
 * passwd-file, Maildir storage. Nothing of the machine's own Dovecot configuration is read.
 */
export interface LocalDovecot {
  /** INBOX_IMAP_URL for Tally. */
  url: string;
  /** Delivers a raw message into a folder (IMAP APPEND, as a delivery agent would). */
  append(raw: string | Buffer, folder?: string): Promise<void>;
  /** The messages now in a folder: their subjects, oldest first. */
  subjects(folder: string): Promise<string[]>;
  close(): Promise<void>;
}

const DOVECOT = '/usr/sbin/dovecot';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until Dovecot answers on the port. */
async function untilListening(
  port: number,
  auth: { user: string; pass: string },
  child: ChildProcess,
  log: () => string,
) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dovecot exited: ${log()}`);
    const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth, logger: false });
    try {
      await client.connect();
      await client.logout().catch(() => undefined);
      return;
    } catch {
      client.close();
      if (Date.now() > deadline) throw new Error(`dovecot did not start: ${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * The tests take a free port and a random password; the e2e run (e2e/support/local-dovecot.mjs)
 * gives the fixed ones its server's INBOX_IMAP_URL names.
 */
export interface LocalDovecotOptions {
  port?: number;
  user?: string;
  password?: string;
}

export async function startLocalDovecot(options: LocalDovecotOptions = {}): Promise<LocalDovecot> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tally-dovecot-'));
  const port = options.port ?? (await freePort());
  const user = options.user ?? 'tally';
  const password = options.password ?? randomBytes(12).toString('hex');
  // As root, Dovecot runs its processes as its own users; as anyone else, as that user.
  const root = process.getuid?.() === 0;
  const me = userInfo().username;
  const mailUser = root ? 'dovecot' : me;
  for (const folder of ['run', 'state', 'mail']) mkdirSync(path.join(dir, folder));
  if (root) {
    const { uid, gid } = userOf('dovecot');
    chownSync(path.join(dir, 'mail'), uid, gid);
  }
  writeFileSync(path.join(dir, 'passwd'), `${user}:{PLAIN}${password}::::::\n`, { mode: 0o600 });
  if (root) {
    // Dovecot's own users go through the folder to the password file and the mail, no further.
    const { uid, gid } = userOf('dovecot');
    chmodSync(dir, 0o711);
    chownSync(path.join(dir, 'passwd'), uid, gid);
  }
  writeFileSync(
    path.join(dir, 'dovecot.conf'),
    `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
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
    address = 127.0.0.1
    port = ${port}
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
  const child = spawn(DOVECOT, ['-F', '-c', path.join(dir, 'dovecot.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const log = () => output + readFileSync(path.join(dir, 'dovecot.log'), 'utf8');
  try {
    await untilListening(port, { user, pass: password }, child, log);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }

  const session = async <T>(work: (client: ImapFlow) => Promise<T>): Promise<T> => {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port,
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

  return {
    url: `imap://${user}:${password}@127.0.0.1:${port}/INBOX`,
    async append(raw, folder = 'INBOX') {
      await session((client) => client.append(folder, raw));
    },
    async subjects(folder) {
      return session(async (client) => {
        const exists = (await client.list()).some((entry) => entry.path === folder);
        if (!exists) return [];
        const lock = await client.getMailboxLock(folder);
        try {
          const subjects: string[] = [];
          for await (const message of client.fetch('1:*', { envelope: true })) {
            subjects.push(message.envelope?.subject ?? '');
          }
          return subjects;
        } catch {
          // An empty folder has no 1:*.
          return [];
        } finally {
          lock.release();
        }
      });
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      if (child.exitCode === null) await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The uid and gid of a system user, from /etc/passwd. */
function userOf(name: string): { uid: number; gid: number } {
  const line = readPasswd().find((entry) => entry.startsWith(`${name}:`));
  const [, , uid, gid] = (line ?? '').split(':');
  if (uid === undefined || gid === undefined) throw new Error(`no system user ${name}`);
  return { uid: Number(uid), gid: Number(gid) };
}

function readPasswd(): string[] {
  return readFileSync('/etc/passwd', 'utf8').split('\n');
}
