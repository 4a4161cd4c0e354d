// The young generation's size the server runs with, chosen for its database (docs/performance.md,
// Footprint; docs/decisions/102-young-generation-by-database.md). V8 13 (Node 24) lets each
// semi-space grow to 32 MB under load, which took the peak from 139 MB on Node 20 to 190 MB.
// - SQLite (the embedded default, a small host): 8 MB semi-spaces, starting at 4 MB so that the
//   first minutes under load do not promote young garbage into old space. A request on SQLite
//   runs to its answer without waiting, so few objects are alive at a collection and smaller
//   semi-spaces cost no CPU (bench/run.mjs, build against build).
// - PostgreSQL: 16 MB, Node 20's size. Requests wait for the database side by side, so more of
//   their objects are alive at each collection, and 8 MB cost 6-19 % more CPU per request.
// Operators need not know any of this: serve.mjs starts the server with them (applyServerNodeFlags).

/** The Node flags for the database `env` names (DATABASE_URL: PostgreSQL; else SQLite). */
function serverNodeFlags(env = process.env) {
  return env.DATABASE_URL
    ? ['--max-semi-space-size=16']
    : ['--max-semi-space-size=8', '--min-semi-space-size=4'];
}

const SIZES_YOUNG_GENERATION = /^--(max|min)[-_]semi[-_]space[-_]size\b/;

/**
 * Runs this process again with the server's flags, unless it has them or the operator chose the
 * young generation's size (on the command line or in NODE_OPTIONS). process.execve replaces the
 * process in place: same pid, standard streams and environment, no second process; about 25 ms
 * at start. Windows has no execve: the server runs there with V8's defaults.
 */
export function applyServerNodeFlags() {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((flag) => SIZES_YOUNG_GENERATION.test(flag))) return;
  if (process.platform === 'win32') return;
  process.execve(process.execPath, [
    process.execPath,
    ...serverNodeFlags(),
    ...process.execArgv,
    ...process.argv.slice(1),
  ]);
}
