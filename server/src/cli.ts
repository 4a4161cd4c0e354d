import { isIPv6 } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createOperator, generatePassword, OperatorError } from './account/operator.js';
import { type Config, loadConfig } from './config.js';
import { backupDatabase, defaultBackupTarget, restoreDatabase, verifyBackup } from './db/backup.js';
import { connect, type DatabaseHandle } from './db/connection.js';
import { migrateWithBackup } from './db/migrate.js';
import { systemClock } from './shared/clock.js';

/**
 * `tally`, the operator's command line (docs/product.md, Operators), run from the built server by
 * server/bin/tally.mjs (`npx tally …` in a checkout). It reads the same configuration as the
 * server (DATA_DIR, DATABASE_URL, PUBLIC_URL…). Exit codes: 0 done, 1 failed, 2 wrong usage.
 */

export const USAGE = `Usage: tally <command>

  user list                              the accounts, with e-mail state and open sessions
  user create <username> <email>         a new account; the password is generated and printed
                                         (one-time: changed at the first sign-in),
        [--password-stdin]               or read from standard input
  user reset-password <username>         prints a one-time link that sets a new password (1 hour);
        [--password-stdin]               or sets the password read from standard input now
  user verify <username>                 marks the account's e-mail address verified
  user disable-two-factor <username>     turns two-factor codes off (a lost phone and codes)
  user delete <username> --yes           deletes the account and all its data
  backup [file]                          an online backup of the database (by default
                                         into DATA_DIR/backups/)
  restore <file>                         puts a backup back (stop the server first)
  restore --verify <file>                checks a backup without restoring it
  admin grant <username>                 lets the account use the admin page (an operator)
  admin revoke <username>                takes the admin page away from the account
  migrate                                brings the database to the newest schema
  healthcheck [--live]                   asks the running server whether it is ready
                                         (/readyz; --live: only whether it answers, /healthz);
                                         exit code 0 or 1, for images without a shell or curl
`;

export interface CliIo {
  stdin: AsyncIterable<Buffer | string>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface CliDeps {
  config?: Config;
  /** An open database (the tests'); otherwise the configured one is opened and closed. */
  database?: DatabaseHandle;
}

class UsageError extends Error {}

async function readStdin(stdin: CliIo['stdin']): Promise<string> {
  let text = '';
  for await (const chunk of stdin) text += chunk.toString();
  return text.replace(/\r?\n$/, '');
}

const HEALTHCHECK_TIMEOUT_MS = 5_000;

/**
 * Asks the server this configuration describes (PORT, and HOST unless it binds every interface)
 * for /readyz or /healthz, with node's fetch: the image needs no shell, curl or wget for it.
 */
async function healthcheck(config: Config, live: boolean, io: CliIo): Promise<number> {
  const everywhere = ['0.0.0.0', '::', ''];
  const host = everywhere.includes(config.host) ? '127.0.0.1' : config.host;
  const url = new URL(`http://${isIPv6(host) ? `[${host}]` : host}:${config.port}`);
  url.pathname = live ? '/healthz' : '/readyz';
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(HEALTHCHECK_TIMEOUT_MS) });
    const body = await response.text();
    if (response.ok) {
      io.stdout.write(`${url.pathname}: ${response.status} ${body}\n`);
      return 0;
    }
    io.stderr.write(`${url.pathname}: ${response.status} ${body}\n`);
  } catch (error) {
    const reason = (error as Error).cause ?? error;
    io.stderr.write(`${url.href} did not answer: ${(reason as Error).message}\n`);
  }
  return 1;
}

export async function runCli(argv: string[], io: CliIo, deps: CliDeps = {}): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'password-stdin': { type: 'boolean' },
        yes: { type: 'boolean' },
        live: { type: 'boolean' },
        verify: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  const [command, sub, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') {
    io.stdout.write(USAGE);
    return command === undefined && !values.help ? 2 : 0;
  }

  let config: Config;
  try {
    config = deps.config ?? loadConfig();
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n`);
    return 1;
  }
  const say = (text: string) => io.stdout.write(`${text}\n`);

  try {
    if (command === 'healthcheck') return await healthcheck(config, values.live ?? false, io);
    if (command === 'backup' || command === 'restore') {
      if (!sub && command === 'restore')
        throw new UsageError('Name the file: tally restore <file>');
      const file = path.resolve(sub ?? defaultBackupTarget(config));
      if (command === 'restore' && values.verify) {
        const found = verifyBackup(file);
        const holds = found.users === null ? '' : `: ${found.users} accounts, ${found.todos} todos`;
        say(
          `${file} is a sound ${found.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} backup (schema ${found.migration ?? 'unknown'})${holds}`,
        );
        return 0;
      }
      if (command === 'backup') {
        await backupDatabase(config, file);
        say(`Backed up the database to ${file}`);
      } else {
        restoreDatabase(config, file);
        say(`Restored ${file}`);
      }
      return 0;
    }

    const database = deps.database ?? connect({ ...config, poolSize: 2 });
    try {
      const applied = await migrateWithBackup(database, config, say);
      if (command === 'migrate') {
        say(applied.length > 0 ? `Applied ${applied.join(', ')}` : 'The database is up to date');
        return 0;
      }
      const publicUrl = config.publicUrl;
      const operator = createOperator(database.db, systemClock, publicUrl);
      if (command === 'admin') {
        const name = rest[0];
        if (!name || (sub !== 'grant' && sub !== 'revoke')) {
          throw new UsageError('Say what and whom: tally admin grant|revoke <username>');
        }
        await operator.setOperator(name, sub === 'grant');
        say(
          sub === 'grant'
            ? `${name} is an operator: the admin page is at ${publicUrl}/admin`
            : `${name} is no longer an operator`,
        );
        return 0;
      }
      if (command !== 'user') throw new UsageError(`Unknown command: ${command}`);

      const [username, email] = rest;
      const need = (value: string | undefined, what: string) => {
        if (!value) throw new UsageError(`Name the ${what}: tally user ${sub} <${what}>`);
        return value;
      };
      switch (sub) {
        case 'list': {
          const users = await operator.list();
          if (users.length === 0) say('No accounts yet');
          for (const user of users) {
            const flags = [
              user.emailVerified ? 'verified' : 'unverified',
              user.hasPassword ? 'password' : 'no password',
              ...(user.googleLinked ? ['Google'] : []),
              ...(user.oidcLinked ? ['single sign-on'] : []),
              `${user.openSessions} session${user.openSessions === 1 ? '' : 's'}`,
            ];
            say(`${user.username}\t${user.email}\t${flags.join(', ')}\tsince ${user.createdAt}`);
          }
          return 0;
        }
        case 'create': {
          need(username, 'username');
          need(email, 'email');
          const generated = !values['password-stdin'];
          const password = generated ? generatePassword() : await readStdin(io.stdin);
          // A generated password passes through the operator's hands: it works for one sign-in.
          await operator.create(username as string, email as string, password, generated);
          say(`Created ${username}`);
          if (generated) say(`Password: ${password} (one-time: they choose a new one at sign-in)`);
          return 0;
        }
        case 'reset-password': {
          need(username, 'username');
          if (values['password-stdin']) {
            await operator.setPassword(username as string, await readStdin(io.stdin));
            say(`Set a new password for ${username}; their sessions have ended`);
          } else {
            say(await operator.resetLink(username as string));
          }
          return 0;
        }
        case 'verify':
          await operator.verify(need(username, 'username'));
          say(`Marked the e-mail address of ${username} verified`);
          return 0;
        case 'disable-two-factor':
          say(
            (await operator.disableTwoFactor(need(username, 'username')))
              ? `Turned two-factor codes off for ${username}: the password alone signs in`
              : `${username} had no two-factor codes on`,
          );
          return 0;
        case 'delete':
          need(username, 'username');
          if (!values.yes) {
            throw new UsageError(`This deletes ${username} and all their data: add --yes`);
          }
          await operator.remove(username as string);
          say(`Deleted ${username} and all their data`);
          return 0;
        default:
          throw new UsageError(`Unknown command: user ${sub ?? ''}`.trim());
      }
    } finally {
      if (!deps.database) await database.db.destroy();
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.stderr.write(`${error instanceof OperatorError ? error.message : String(error)}\n`);
    return 1;
  }
}
