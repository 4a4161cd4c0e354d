// The one place where the server's Node flags are chosen
// (docs/decisions/161-one-launcher-and-budgets-from-outside.md).
// They are given on the command line that starts the server, never by the server starting itself
// again: scripts/start.mjs (`npm start`) spawns `node <flags> server/bin/serve.mjs`, and the
// release's launcher, bin/tally-server (written from launcherScript() by scripts/package.mjs),
// does the same for the release's `npm start`, its systemd unit and the Docker image.
//
// The young generation's size follows the database
// (docs/decisions/102-young-generation-by-database.md; docs/performance.md, Footprint):
// - SQLite, the embedded default on a small host: 8 MB semi-spaces, starting at 4 MB so that the
//   first minutes under load do not promote young garbage into old space. A request on SQLite
//   runs to its answer without waiting, so few objects are alive at a collection and smaller
//   semi-spaces cost no CPU.
// - PostgreSQL: 16 MB. Requests wait for the database side by side, so more of their objects are
//   alive at each collection, and 8 MB cost more CPU per request.
// On SQLite, V8's allocation-site pretenuring stays off (decision 195): a collection in the
// middle of a list's answer can make V8 allocate that code's later objects straight into old
// space, where they die young but wait for a full collection, and the heap then doubles under
// load in about one start of two.
// On SQLite, V8 also optimises functions on the request thread instead of its worker threads
// (decision 196): the compilers' working memory on the workers stayed resident (12 MB at idle,
// 15 MB at the peak of the list load), and a host whose requests run on one thread gains no
// speed from compiling beside it.
import { existsSync } from 'node:fs';
import path from 'node:path';

export const NODE_FLAGS = {
  sqlite: [
    '--max-semi-space-size=8',
    '--min-semi-space-size=4',
    '--no-allocation-site-pretenuring',
    '--no-concurrent-recompilation',
  ],
  postgres: ['--max-semi-space-size=16'],
};

/** A size of the young generation the operator chose: theirs is kept. */
const SIZES_YOUNG_GENERATION = /--(max|min)[-_]semi[-_]space[-_]size\b/;

/**
 * Whether the server will run on PostgreSQL: DATABASE_URL given in any of the three ways a
 * setting may be (server/src/setting-sources.ts: the variable, NAME_FILE, a systemd credential).
 */
function runsOnPostgres(env = process.env) {
  if (env.DATABASE_URL || env.DATABASE_URL_FILE) return true;
  return (
    !!env.CREDENTIALS_DIRECTORY && existsSync(path.join(env.CREDENTIALS_DIRECTORY, 'DATABASE_URL'))
  );
}

/**
 * The flags to start the server with under `env`; none when NODE_OPTIONS sizes the young
 * generation.
 */
export function serverNodeFlags(env = process.env) {
  if (SIZES_YOUNG_GENERATION.test(env.NODE_OPTIONS ?? '')) return [];
  return NODE_FLAGS[runsOnPostgres(env) ? 'postgres' : 'sqlite'];
}

/**
 * The release's bin/tally-server: the same choice as serverNodeFlags in POSIX sh, so that the
 * systemd unit, the Docker image and `npm start` start the server in one process, with its
 * flags, from one file. `exec` makes node the process the service manager started.
 */
export function launcherScript() {
  return `#!/bin/sh
# Starts Tally's server with the Node flags for its database. Written by scripts/package.mjs
# from server/bin/node-flags.mjs; README.md, "Host it". Configuration: the environment.
here=$(dirname "$0")
flags="${NODE_FLAGS.sqlite.join(' ')}"
if [ -n "\${DATABASE_URL:-}" ] || [ -n "\${DATABASE_URL_FILE:-}" ] ||
  { [ -n "\${CREDENTIALS_DIRECTORY:-}" ] && [ -e "$CREDENTIALS_DIRECTORY/DATABASE_URL" ]; }; then
  flags="${NODE_FLAGS.postgres.join(' ')}"
fi
case "\${NODE_OPTIONS:-}" in
  *semi-space-size* | *semi_space_size*) flags= ;;
esac
# shellcheck disable=SC2086 # the flags are separate words
exec node $flags "$here/../server/bin/serve.mjs"
`;
}
