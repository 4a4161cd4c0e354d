// `npm run test:faults`: the fault suites against the real compiled server (server/dist/main.js),
// each on loopback with its own data. `npm test` runs them too, at CI size (FAULT_KILLS=5,
// SOAK_SECONDS=45), when TEST_FAULTS is set (as .ci/run does) or with `npm test -- faults`
// (scripts/test.mjs, `faults()`), and reads the report this writes to .reports/faults.json.
//
//   durability  SIGKILL mid-burst FAULT_KILLS times (default 20) on each database; after every
//               restart each acknowledged write is there, no refused one is, none half-applied
//   backup      `db:backup` while writing, restore, the acknowledged data is back
//   shutdown    SIGTERM under load: in-flight requests finish, new ones are refused, exit < 10 s
//   outage      PostgreSQL behind a TCP proxy we cut: 503s, no hang, no crash, recovery
//   soak        SOAK_SECONDS (default 600) of steady mixed load: memory and handles flat, no error
//
// Env: FAULT_KILLS, SOAK_SECONDS, SOAK_RATE (requests/s, default 40), FAULT_DATABASES
// (sqlite,postgres), FAULT_PG_URL (admin URL, default postgres://postgres@127.0.0.1:5432/postgres).
// Arguments pick stages: `npm run test:faults -- durability soak`, or, once built (`tsc -b
// server/faults`), `node server/faults/dist/run.js durability soak`.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { backup } from './backup.js';
import { durability } from './durability.js';
import { outage } from './outage.js';
import { failures, results } from './lib/report.js';
import { DATABASES, root, type DatabaseKind } from './lib/settings.js';
import { shutdown } from './shutdown.js';
import { soak } from './soak.js';

/** Runs a suite once per database in FAULT_DATABASES. */
const eachDatabase = (suite: (kind: DatabaseKind) => Promise<void>) => async () => {
  for (const kind of DATABASES) await suite(kind);
};

/** Every stage in its default order; the outage needs PostgreSQL and is skipped without it. */
const stages = new Map<string, () => Promise<void>>([
  ['durability', eachDatabase(durability)],
  ['backup', eachDatabase(backup)],
  ['shutdown', eachDatabase(shutdown)],
  ['outage', () => (DATABASES.includes('postgres') ? outage() : Promise.resolve())],
  ['soak', soak],
]);
const chosen = process.argv.length > 2 ? process.argv.slice(2) : [...stages.keys()];

const started = Date.now();
try {
  for (const name of chosen) {
    const stage = stages.get(name);
    if (!stage) throw new Error(`unknown stage ${name}`);
    await stage();
  }
} catch (error) {
  failures.push(
    `harness error: ${error instanceof Error && error.stack ? error.stack : String(error)}`,
  );
  console.error(error);
}
const report = {
  at: new Date().toISOString(),
  seconds: Math.round((Date.now() - started) / 1000),
  results,
  failures,
};
mkdirSync(path.join(root, '.reports'), { recursive: true });
writeFileSync(path.join(root, '.reports', 'faults.json'), `${JSON.stringify(report, null, 2)}\n`);
console.info(
  `\n${failures.length === 0 ? 'PASS' : 'FAIL'}: fault suites in ${report.seconds} s (report in .reports/faults.json)`,
);
if (failures.length) {
  for (const f of failures) console.error(`- ${f}`);
  process.exitCode = 1;
}
