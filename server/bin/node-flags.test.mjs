// The two forms of the one launcher choose the same flags: serverNodeFlags (npm start in a
// checkout) and the release's bin/tally-server, run here with a `node` that prints what it was
// given.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launcherScript, NODE_FLAGS, serverNodeFlags } from './node-flags.mjs';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'tally-launcher-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const bin = path.join(scratch, 'bin');
const credentials = path.join(scratch, 'credentials');
mkdirSync(bin);
mkdirSync(credentials);
writeFileSync(path.join(credentials, 'DATABASE_URL'), 'postgres://db/tally\n');
writeFileSync(path.join(bin, 'tally-server'), launcherScript());
chmodSync(path.join(bin, 'tally-server'), 0o755);
writeFileSync(path.join(bin, 'node'), '#!/bin/sh\nprintf "%s\\n" "$@"\n');
chmodSync(path.join(bin, 'node'), 0o755);

/** The arguments bin/tally-server gives node under `env`. */
const launched = (env) =>
  execFileSync(path.join(bin, 'tally-server'), {
    env: { PATH: `${bin}:/usr/bin:/bin`, ...env },
    encoding: 'utf8',
  })
    .trim()
    .split('\n');

describe('the launcher', () => {
  const cases = [
    ['SQLite: no database URL', {}, NODE_FLAGS.sqlite],
    ['PostgreSQL: DATABASE_URL', { DATABASE_URL: 'postgres://db/tally' }, NODE_FLAGS.postgres],
    ['PostgreSQL: DATABASE_URL_FILE', { DATABASE_URL_FILE: '/run/secret' }, NODE_FLAGS.postgres],
    [
      'PostgreSQL: a systemd credential',
      { CREDENTIALS_DIRECTORY: credentials },
      NODE_FLAGS.postgres,
    ],
    ['SQLite: a credentials folder without it', { CREDENTIALS_DIRECTORY: bin }, NODE_FLAGS.sqlite],
    ["the operator's own size in NODE_OPTIONS", { NODE_OPTIONS: '--max-semi-space-size=32' }, []],
  ];

  it.each(cases)('%s', (_name, env, flags) => {
    expect(serverNodeFlags(env)).toEqual(flags);
    const args = launched(env);
    expect(args.slice(0, -1)).toEqual(flags);
    expect(args.at(-1)).toBe(`${bin}/../server/bin/serve.mjs`);
  });
});
