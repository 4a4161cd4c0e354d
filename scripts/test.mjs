// `npm test`: every suite (lint and types side by side, then in turn unit and API on SQLite, API
// on PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set, the bundle budgets, end to end in
// Chromium, the release package unpacked and started), then one line totalling them. With
// TEST_FAULTS set (as .ci/run does), or `npm test -- faults`, it also runs the fault suites of
// `npm run test:faults` with small counts.
import '../server/bin/require-node.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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
const results = [];

function run(args, env = {}, command = npx) {
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return { ok: result.status === 0, seconds: (Date.now() - started) / 1000 };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Checks that are one pass or one failure each (lint, types), run side by side, one per core:
 * each is a single-threaded tool. Each one's output is printed whole when it ends.
 */
async function checksSideBySide(list) {
  const queue = list.map((item, index) => ({ ...item, index }));
  const done = [];
  const lane = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const started = Date.now();
      const output = [];
      const child = spawn(item.command ?? npx, item.args, {
        cwd: root,
        env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
      });
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
      const status = await new Promise((resolve) => child.on('close', resolve));
      const seconds = (Date.now() - started) / 1000;
      console.log(`\n=== ${item.name} ===`);
      process.stdout.write(Buffer.concat(output));
      done.push({ ...item, ok: status === 0, seconds });
    }
  };
  await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, lane));
  for (const { name, ok, seconds } of done.sort((a, b) => a.index - b.index)) {
    results.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0, seconds });
  }
}

/** A check that is one pass or one failure (the build). */
function check(name, args, env = {}, command = npx) {
  console.log(`\n=== ${name} ===`);
  const { ok, seconds } = run(args, env, command);
  results.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0, seconds });
  return ok;
}

function vitest(name, projects, env) {
  console.log(`\n=== ${name} ===`);
  const file = path.join(reports, `${name.replace(/\W+/g, '-')}.json`);
  const projectArgs = projects.flatMap((p) => ['--project', p]);
  const { ok, seconds } = run(
    [
      'vitest',
      'run',
      ...projectArgs,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${file}`,
    ],
    env,
  );
  const report = readJson(file);
  const passed = report?.numPassedTests ?? 0;
  const failed = (report?.numFailedTests ?? 0) + (ok || report?.numFailedTests ? 0 : 1);
  results.push({ name, passed, failed, skipped: report?.numPendingTests ?? 0, seconds });
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

function playwright(name) {
  console.log(`\n=== ${name} ===`);
  const file = path.join(reports, 'e2e.json');
  const { ok, seconds } = run(['playwright', 'test', '--config', 'e2e/playwright.config.ts'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: file,
  });
  const report = readJson(file);
  const stats = report?.stats;
  // A test that passed only on its retry is not a pass: it is named, and counted as failed.
  const flaky = flakyTitles(report);
  const passed = stats?.expected ?? 0;
  const failed =
    (stats?.unexpected ?? 0) + flaky.length + (ok || stats?.unexpected || flaky.length ? 0 : 1);
  results.push({ name, passed, failed, skipped: stats?.skipped ?? 0, flaky, seconds });
}

/** The fault harness (server/faults/src/run.ts): one result per suite and database. */
function faults(name) {
  console.log(`\n=== ${name} ===`);
  const file = path.join(reports, 'faults.json');
  const env = {
    FAULT_KILLS: process.env.FAULT_KILLS || '5',
    SOAK_SECONDS: process.env.SOAK_SECONDS || '45',
    FAULT_DATABASES: pgUrl ? 'sqlite,postgres' : 'sqlite',
    ...(pgUrl ? { FAULT_PG_URL: pgUrl } : {}),
  };
  // Run once: a fault suite that fails is a failure to look at, never re-run until it passes.
  const { ok, seconds } = run(['run', 'test:faults', '--silent'], env, npm);
  const report = readJson(file);
  // One result per suite and database; the harness lists failures as messages, not per suite,
  // so any failure counts as one failed suite.
  const failed = ok && !report?.failures?.length ? 0 : 1;
  const passed = Math.max(0, Object.keys(report?.results ?? {}).length - failed);
  results.push({ name, passed, failed, skipped: 0, seconds });
}

/** scripts/test-package.mjs: the release package unpacked and started; one result per check. */
function packageStage(name, built) {
  console.log(`\n=== ${name} ===`);
  const file = path.join(reports, 'package.json');
  const args = ['scripts/test-package.mjs', `--report=${file}`, ...(built ? ['--no-build'] : [])];
  const { ok, seconds } = run(args, {}, node);
  const report = readJson(file);
  const passed = report?.passed ?? 0;
  const failed = (report?.failed ?? 0) + (ok || report?.failed ? 0 : 1);
  results.push({ name, passed, failed, skipped: 0, seconds });
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
await checksSideBySide(staticChecks);
if (want('unit')) {
  vitest('unit and API on SQLite', ['contract', 'web', 'server'], { TEST_DATABASE_URL: '' });
}
if (want('postgres')) {
  if (pgUrl) vitest('API on PostgreSQL', ['server'], { TEST_DATABASE_URL: pgUrl });
  else
    console.log('\n(API on PostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to run it)');
}
let built = false;
if (want('e2e')) {
  built = check('build', ['run', 'build', '--silent'], {}, npm);
  if (built) {
    check('bundle budgets', ['scripts/check-bundle-size.mjs'], {}, node);
    playwright('end to end (Chromium)');
  }
}
if (want('package')) packageStage('release package', built);
if (only.includes('faults') || (only.length === 0 && process.env.TEST_FAULTS)) {
  faults('faults (CI size)');
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
