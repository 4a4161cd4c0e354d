// `npm test`: every suite, then one line totalling them. The build, then two lanes at once: the
// bundle budgets and end to end in Chromium; beside them, at the lowest CPU priority, lint and
// types, unit and API on SQLite, API on PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set,
// and the release package unpacked and started. With TEST_FAULTS set (as .ci/run does), or
// `npm test -- faults`, the fault suites of `npm run test:faults` with small counts run last,
// alone. `npm test -- unit postgres` runs only the stages named.
import '../server/bin/require-node.mjs';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, setPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const reports = path.join(root, '.reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const node = process.execPath;
const pgUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || '';
const only = process.argv.slice(2);

/**
 * Runs a command to its end. In the foreground its output streams as it comes. `held`: its
 * output is printed whole when it ends, under `name`, so that commands running at once do not
 * mix their lines. `beside`: it runs beside the browser tests, at the lowest CPU priority, so that
 * the browser tests it shares the cores with keep their pace (and its output is held).
 */
async function run(
  args,
  env = {},
  command = npx,
  { held = false, beside = false, name = '' } = {},
) {
  const started = Date.now();
  const hold = held || beside;
  const child = spawn(command, args, {
    cwd: root,
    stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: {
      ...process.env,
      ...(hold ? { FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } : {}),
      ...env,
    },
  });
  if (beside) {
    // Inherited by everything it starts (Vitest's workers, tsc, the packaged server).
    try {
      setPriority(child.pid, 19);
    } catch {
      // A system that does not let a process lower its child's priority runs it as it is.
    }
  }
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  const status = await new Promise((resolve) => child.on('close', resolve));
  if (hold) {
    console.log(`\n=== ${name}${beside ? ' (beside the browser tests)' : ''} ===`);
    process.stdout.write(Buffer.concat(output));
  }
  return { ok: status === 0, seconds: (Date.now() - started) / 1000 };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Each stage's result, in the order the stages are listed here whatever order they end in. */
const results = [];
let nextSlot = 0;
const slot = () => {
  const index = nextSlot++;
  return (result) => {
    results[index] = result;
  };
};

/**
 * Checks that are one pass or one failure each (lint, types), run side by side, one per core:
 * each is a single-threaded tool.
 */
async function checksSideBySide(list, lane) {
  const queue = list.map((item) => ({ ...item, record: slot() }));
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const { ok, seconds } = await run(item.args, {}, item.command ?? npx, {
        ...lane,
        held: true,
        name: item.name,
      });
      item.record({ name: item.name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0, seconds });
    }
  };
  await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, worker));
}

/** A check that is one pass or one failure (the build, the bundle budgets). */
async function check(name, args, env = {}, command = npx) {
  const record = slot();
  console.log(`\n=== ${name} ===`);
  const { ok, seconds } = await run(args, env, command);
  record({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0, seconds });
  return ok;
}

async function vitest(name, projects, env, lane) {
  const record = slot();
  if (!lane.beside) console.log(`\n=== ${name} ===`);
  const file = path.join(reports, `${name.replace(/\W+/g, '-')}.json`);
  const projectArgs = projects.flatMap((p) => ['--project', p]);
  const { ok, seconds } = await run(
    [
      'vitest',
      'run',
      ...projectArgs,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${file}`,
    ],
    env,
    npx,
    { ...lane, name },
  );
  const report = readJson(file);
  const passed = report?.numPassedTests ?? 0;
  const failed = (report?.numFailedTests ?? 0) + (ok || report?.numFailedTests ? 0 : 1);
  record({ name, passed, failed, skipped: report?.numPendingTests ?? 0, seconds });
}

/** Titles of the tests Playwright passed only on a retry ("file › describe › title"). */
function flakyTitles(report) {
  const titles = [];
  const walk = (suite, trail) => {
    const here = suite.title ? [...trail, suite.title] : trail;
    for (const spec of suite.specs ?? []) {
      if (spec.tests?.some((t) => t.status === 'flaky'))
        titles.push([...here, spec.title].join(' › '));
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report?.suites ?? []) walk(suite, []);
  return titles;
}

async function playwright(name) {
  const record = slot();
  console.log(`\n=== ${name} ===`);
  const file = path.join(reports, 'e2e.json');
  const { ok, seconds } = await run(
    ['playwright', 'test', '--config', 'e2e/playwright.config.ts'],
    { PLAYWRIGHT_JSON_OUTPUT_NAME: file },
  );
  const report = readJson(file);
  const stats = report?.stats;
  // A test that passed only on its retry is not a pass: it is named, and counted as failed.
  const flaky = flakyTitles(report);
  const passed = stats?.expected ?? 0;
  const failed =
    (stats?.unexpected ?? 0) + flaky.length + (ok || stats?.unexpected || flaky.length ? 0 : 1);
  record({ name, passed, failed, skipped: stats?.skipped ?? 0, flaky, seconds });
}

/** The fault harness (server/faults/src/run.ts): one result per suite and database. */
async function faults(name) {
  const record = slot();
  console.log(`\n=== ${name} ===`);
  const file = path.join(reports, 'faults.json');
  const env = {
    FAULT_KILLS: process.env.FAULT_KILLS || '5',
    SOAK_SECONDS: process.env.SOAK_SECONDS || '45',
    FAULT_DATABASES: pgUrl ? 'sqlite,postgres' : 'sqlite',
    ...(pgUrl ? { FAULT_PG_URL: pgUrl } : {}),
  };
  // Run once: a fault suite that fails is a failure to look at, never re-run until it passes.
  const { ok, seconds } = await run(['run', 'test:faults', '--silent'], env, npm);
  const report = readJson(file);
  // One result per suite and database; the harness lists failures as messages, not per suite,
  // so any failure counts as one failed suite.
  const failed = ok && !report?.failures?.length ? 0 : 1;
  const passed = Math.max(0, Object.keys(report?.results ?? {}).length - failed);
  record({ name, passed, failed, skipped: 0, seconds });
}

/** scripts/test-package.mjs: the release package unpacked and started; one result per check. */
async function packageStage(name, built, lane) {
  const record = slot();
  if (!lane.beside) console.log(`\n=== ${name} ===`);
  const file = path.join(reports, 'package.json');
  const args = ['scripts/test-package.mjs', `--report=${file}`, ...(built ? ['--no-build'] : [])];
  const { ok, seconds } = await run(args, {}, node, { ...lane, name });
  const report = readJson(file);
  const passed = report?.passed ?? 0;
  const failed = (report?.failed ?? 0) + (ok || report?.failed ? 0 : 1);
  record({ name, passed, failed, skipped: 0, seconds });
}

const want = (stage) => only.length === 0 || only.includes(stage);

// tsc and eslint take longest: they start first, and the short ones fill in beside them.
const staticChecks = [];
if (want('types')) {
  staticChecks.push({ name: 'types (tsc)', args: ['run', 'typecheck', '--silent'], command: npm });
}
if (want('lint')) {
  staticChecks.push(
    { name: 'lint (eslint)', args: ['eslint', '.', '--max-warnings', '0'] },
    { name: 'format (prettier)', args: ['prettier', '--check', '.'] },
    { name: 'unused code (knip)', args: ['knip'] },
    { name: 'import cycles, types too', args: ['scripts/check-cycles.mjs'], command: node },
    { name: 'decision records', args: ['scripts/check-decisions.mjs'], command: node },
    { name: 'server README', args: ['scripts/check-server-readme.mjs'], command: node },
  );
}

// Two lanes at once (decision 194). The browser tests wait on pages far more than they compute
// (one Chromium used about half a core), so every suite that needs no browser runs beside them
// at the lowest CPU priority: the cores they leave idle do that work. The build comes first,
// since the browser tests and the release package use it.
const wantE2e = want('e2e');
const building = wantE2e ? check('build', ['run', 'build', '--silent'], {}, npm) : null;
const lane = { beside: wantE2e };
const browserLane = async () => {
  if (!building || !(await building)) return;
  await check('bundle budgets', ['scripts/check-bundle-size.mjs'], {}, node);
  await playwright('end to end (Chromium)');
};
const sideLane = async () => {
  await checksSideBySide(staticChecks, lane);
  if (want('unit')) {
    await vitest(
      'unit and API on SQLite',
      ['contract', 'web', 'server'],
      { TEST_DATABASE_URL: '' },
      lane,
    );
  }
  if (want('postgres')) {
    if (pgUrl) await vitest('API on PostgreSQL', ['server'], { TEST_DATABASE_URL: pgUrl }, lane);
    else
      console.log('\n(API on PostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to run it)');
  }
  if (want('package'))
    await packageStage('release package', building ? await building : false, lane);
};
await Promise.all([browserLane(), sideLane()]);
// The fault suites kill, starve and flood servers on purpose, and time what they see: alone.
if (only.includes('faults') || (only.length === 0 && process.env.TEST_FAULTS)) {
  await faults('faults (CI size)');
}

console.log('\nSuite                          passed  failed  skipped  flaky  seconds');
for (const r of results) {
  console.log(
    `${r.name.padEnd(30)} ${String(r.passed).padStart(6)}  ${String(r.failed).padStart(6)}  ${String(r.skipped).padStart(7)}  ${String(r.flaky?.length ?? 0).padStart(5)}  ${r.seconds.toFixed(1).padStart(7)}`,
  );
}
const flaky = results.flatMap((r) => (r.flaky ?? []).map((title) => `${r.name}: ${title}`));
if (flaky.length) {
  console.log('\nFlaky (passed only on retry, counted as failed):');
  for (const title of flaky) console.log(`  ${title}`);
}
const total = (key) => results.reduce((sum, r) => sum + r[key], 0);
const skipped = total('skipped');
// The last line starts "N passed, N failed" (.ci/run greps it), then the flaky and skipped counts.
console.log(
  `${total('passed')} passed, ${total('failed')} failed, ${flaky.length} flaky${skipped ? `, ${skipped} skipped` : ''}`,
);
process.exit(total('failed') > 0 ? 1 : 0);
