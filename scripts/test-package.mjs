// The `package` stage of `npm test`: builds the release (scripts/package.mjs), unpacks its
// tarball into a temporary folder away from this checkout, starts `bin/tally-server` there on a
// free port with a temporary DATA_DIR, and checks what an operator would: the health check, a
// registration and a todo list, the `bin/tally` command, the server's memory right after start,
// that no development tool came along, and a clean stop; then it starts the same unpacked release
// on Node.js 26 (the next LTS, from the npm registry as scripts/use-node24.sh brings it) on the
// same data and checks that it answers. Writes a {passed, failed, checks}
// report to the file given as --report=FILE.
// Usage: node scripts/test-package.mjs [--no-build] [--report=FILE]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../server/bin/node-flags.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const reportArg = process.argv.find((arg) => arg.startsWith('--report='));
/** The server's resident memory right after start, in MB: docs/performance.md, Memory. */
const IDLE_RSS_BUDGET_MB = 100;
const DEV_TOOLS = [
  'vite',
  'typescript',
  'vitest',
  'eslint',
  'playwright',
  '@playwright/test',
  'lighthouse',
  'tsx',
  'react',
];

const checks = [];
function check(name, ok, detail = '') {
  checks.push({ name, ok });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}

const packaged = spawnSync(
  process.execPath,
  [path.join(root, 'scripts/package.mjs'), ...process.argv.filter((arg) => arg === '--no-build')],
  { cwd: root, stdio: 'inherit' },
);
check('npm run package', packaged.status === 0);

const work = mkdtempSync(path.join(tmpdir(), 'tally-package-'));
const app = path.join(work, `tally-${version}`);
const dataDir = path.join(work, 'data');
let server = null;
try {
  if (packaged.status !== 0) throw new Error('no package to test');
  const untar = spawnSync('tar', [
    '-xzf',
    path.join(root, 'release', `tally-${version}.tgz`),
    '-C',
    work,
  ]);
  check('tarball unpacks', untar.status === 0 && existsSync(path.join(app, 'server.js')));
  const devTools = DEV_TOOLS.filter((tool) => existsSync(path.join(app, 'node_modules', tool)));
  check('no development tools in node_modules', devTools.length === 0, devTools.join(', '));

  const port = await freePort();
  // Only what the test sets: a CI machine's DATABASE_URL or REDIS_URL must not leak in.
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  // As the release's `npm start`, systemd unit and image run it, without npm in between.
  server = spawn(path.join(app, 'bin/tally-server'), [], {
    cwd: app,
    env,
    stdio: 'inherit',
  });
  const exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const healthy = await waitForHealth(`${base}/api/health`, 20_000);
  check('GET /api/health answers 200', healthy);
  if (!healthy) throw new Error('the server did not start');

  // Idle: give the start's garbage a moment to be collected, as an operator's first look would.
  // This is a fresh install's first start: its empty compile cache and the migrations leave
  // memory glibc holds free, about 7 MB more than a restart (node bench/first-start.mjs;
  // docs/performance.md, Footprint), which is what the budget is held against.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rss = residentMegabytes(server.pid);
  console.log(
    `     RSS right after the first start: ${rss} MB (budget ${IDLE_RSS_BUDGET_MB} MB on a restart)`,
  );
  // The launcher execs node with the flags for its database (node-flags.mjs): the process it
  // started is the server.
  const commandLine = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
  check(
    'bin/tally-server runs the server with the Node flags for SQLite (same process)',
    NODE_FLAGS.sqlite.every((flag) => commandLine.includes(flag)) &&
      commandLine.some((argument) => argument.endsWith('serve.mjs')),
    commandLine.join(' '),
  );

  const username = `pkg${Date.now().toString(36)}`;
  const registered = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      password: 'package-test-1',
    }),
  });
  const { accessToken } = registered.ok ? await registered.json() : {};
  check('POST /api/auth/register answers 201', registered.status === 201 && !!accessToken);
  const todos = await fetch(`${base}/api/todos`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const list = todos.ok ? await todos.json() : null;
  check('GET /api/todos lists the new account (empty)', todos.status === 200 && list !== null);
  const page = await fetch(`${base}/todos`);
  check('the web app is served', page.ok && (await page.text()).includes('<div id="root">'));

  const cli = spawnSync(path.join(app, 'bin/tally'), ['user', 'list'], {
    cwd: app,
    env,
    encoding: 'utf8',
  });
  check(
    'bin/tally user list shows the account',
    cli.status === 0 && cli.stdout.includes(username),
    cli.stderr.trim(),
  );
  // What the Dockerfile's HEALTHCHECK runs, with node alone.
  const probe = spawnSync(process.execPath, [path.join(app, 'bin/tally'), 'healthcheck'], {
    cwd: app,
    env,
    encoding: 'utf8',
  });
  check(
    'bin/tally healthcheck finds the server ready (/readyz)',
    probe.status === 0 && probe.stdout.includes('/readyz: 200'),
    probe.stderr.trim(),
  );
  check('the package holds the systemd unit', existsSync(path.join(app, 'tally.service')));

  server.kill('SIGTERM');
  const code = await Promise.race([
    exited,
    new Promise((resolve) => setTimeout(() => resolve('timeout'), 15_000)),
  ]);
  server = null;
  check('SIGTERM stops it cleanly', code === 0, `exit ${code}`);

  // The same release, unchanged, on the next LTS: its native modules use Node-API, so no rebuild.
  const node26 = spawnSync(
    'bash',
    ['-c', 'TALLY_NODE_MAJOR=26 source scripts/use-node24.sh >&2 && command -v node'],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  ).stdout.trim();
  const version26 = node26
    ? spawnSync(node26, ['--version'], { encoding: 'utf8' }).stdout.trim()
    : '';
  check('Node.js 26 is at hand', version26.startsWith('v26.'), version26 || 'not installed');
  server = spawn(path.join(app, 'bin/tally-server'), [], {
    cwd: app,
    env: { ...env, PATH: `${path.dirname(node26)}:${env.PATH}` },
    stdio: 'inherit',
  });
  const exited26 = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
  const healthy26 = await waitForHealth(`${base}/api/health`, 20_000);
  const todos26 = healthy26
    ? await fetch(`${base}/api/todos`, { headers: { authorization: `Bearer ${accessToken}` } })
    : null;
  check(
    `the release runs on Node.js ${version26}: health and the account's todos`,
    healthy26 && todos26?.status === 200,
  );
  server.kill('SIGTERM');
  await exited26;
  server = null;
} catch (error) {
  check('package smoke test', false, error instanceof Error ? error.message : String(error));
} finally {
  server?.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}

const failed = checks.filter((c) => !c.ok).length;
if (reportArg) {
  writeFileSync(
    reportArg.slice('--report='.length),
    JSON.stringify({ passed: checks.length - failed, failed, checks }),
  );
}
process.exit(failed > 0 ? 1 : 0);

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) return false;
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

function residentMegabytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return Math.round(kilobytes / 1024);
}
