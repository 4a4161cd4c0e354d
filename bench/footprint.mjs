// `node bench/footprint.mjs`: how fast the server starts and how much memory it holds, for one or
// more builds and Node.js binaries in one run (docs/performance.md, Footprint).
//   node bench/footprint.mjs --build=after:.:$(command -v node) \
//     --build=before20:/tmp/tally-before:/usr/bin/node --build=before24:/tmp/tally-before24:$(command -v node)
// Each --build=label:dir:node[:entry[:flag,flag]] names a checkout (built: `npm run build`, its
// node_modules built for that node), the Node.js binary that runs it, the file it starts (default
// --entry=, itself server/bin/serve.mjs: what `npm start` runs, with the flags its `npm start`
// gives unless flags are named; server/dist/main.js before it; server.js in a release) and Node
// flags of its own; without any --build, this tree on the node
// running the script. --starts=N cold starts per build
// (default 7), --requests=N list requests for the peak (default 20,000), --node=<flag,flag> adds
// Node flags to every build. FOOTPRINT_STDOUT=1 shows the servers' standard output (e.g. with --trace-gc).
// For each build, on SQLite with a 200-todo list user:
// - cold start: from spawning the process to the first 200 of GET /api/health (polled every 5 ms),
//   the builds taken in turn, round after round; median and range;
// - idle: VmRSS 3 s after the first answer;
// - peak: the highest VmRSS (sampled every 50 ms) while N `GET /api/todos` are answered (10
//   connections), the CPU time per request of that load (/proc/<pid>/stat), and RSS 3 s after.
// Each build migrates its own database at its first start (so an older build meets the schema it
// knows); the rows are then inserted through the driver (lib/seed.mjs) and signed in over HTTP.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { PASSWORD, seed } from './lib/seed.mjs';
import { median, option } from './lib/measure.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const ENTRY = option('entry') ?? 'server/bin/serve.mjs';
const STARTS = Number(option('starts') ?? 7);
const REQUESTS = Number(option('requests') ?? 20_000);
const NODE_FLAGS = option('node')?.split(',') ?? [];
const PORT = Number(process.env.BENCH_PORT ?? 4121);
const BUDGET = { startMs: 500, idleMb: 100, peakMb: 150 };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const builds = args
  .filter((a) => a.startsWith('--build='))
  .map((a) => {
    const [label, dir, node, entry, flags] = a.slice('--build='.length).split(':');
    return {
      label,
      dir: path.resolve(dir),
      node: node || process.execPath,
      entry: entry || ENTRY,
      flags: flags ? flags.split(',') : [],
    };
  });
if (builds.length === 0)
  builds.push({ label: 'this tree', dir: root, node: process.execPath, entry: ENTRY, flags: [] });
// A build started from server/bin/serve.mjs without flags of its own gets the flags its `npm start`
// gives (its server/bin/node-flags.mjs, since decision 161); an older build's serve.mjs set
// them itself by starting again.
for (const build of builds) {
  if (build.flags.length > 0 || build.entry !== 'server/bin/serve.mjs') continue;
  const launcher = await import(path.join(build.dir, 'server/bin/node-flags.mjs'));
  build.flags = launcher.serverNodeFlags?.({}) ?? [];
}

function rssMegabytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

/** User + system CPU time of the process so far, in microseconds (10 ms ticks). */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

function start(build) {
  const began = performance.now();
  const child = spawn(
    build.node,
    [...NODE_FLAGS, ...build.flags, path.join(build.dir, build.entry)],
    {
      cwd: build.dir,
      env: {
        ...process.env,
        PORT: String(PORT),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATA_DIR: build.dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        WEB_CONCURRENCY: '1',
        NODE_OPTIONS: '',
      },
      stdio: ['ignore', process.env.FOOTPRINT_STDOUT ? 'inherit' : 'ignore', 'inherit'],
    },
  );
  return { child, began };
}

/** Milliseconds from spawning `child` to its first 200 on /api/health. */
async function firstAnswer({ child, began }) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    try {
      const response = await fetch(`http://127.0.0.1:${PORT}/api/health`);
      if (response.ok) return performance.now() - began;
    } catch {
      // not listening yet
    }
    await sleep(5);
  }
}

async function stop(child) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

for (const build of builds) {
  build.dataDir = path.join(os.tmpdir(), `tally-footprint-${build.label.replace(/\W+/g, '-')}`);
  rmSync(build.dataDir, { recursive: true, force: true });
  // The first start creates and migrates this build's database; it is not counted.
  const first = start(build);
  await firstAnswer(first);
  await stop(first.child);
  await seed(
    { dialect: 'sqlite', file: path.join(build.dataDir, 'tally.db'), dataDir: build.dataDir },
    [{ username: 'footprint-list', groups: 5, todos: 200, events: 0, planned: true }],
  );
  build.version = await new Promise((resolve) => {
    const child = spawn(build.node, ['--version']);
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', () => resolve(out.trim()));
  });
  build.starts = [];
}

for (let round = 0; round < STARTS; round++) {
  const order = round % 2 ? [...builds].reverse() : builds;
  for (const build of order) {
    const started = start(build);
    build.starts.push(await firstAnswer(started));
    await stop(started.child);
  }
}

for (const build of builds) {
  const started = start(build);
  await firstAnswer(started);
  const { pid } = started.child;
  try {
    await sleep(3000);
    build.idle = rssMegabytes(pid);
    const login = await fetch(`http://127.0.0.1:${PORT}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'footprint-list', password: PASSWORD }),
    });
    const { accessToken } = await login.json();
    let peak = build.idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMegabytes(pid))), 50);
    const cpuBefore = cpuMicros(pid);
    const result = await autocannon({
      url: `http://127.0.0.1:${PORT}/api/todos`,
      connections: 10,
      amount: REQUESTS,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    clearInterval(sampler);
    build.cpuPerRequest = (cpuMicros(pid) - cpuBefore) / result.requests.total;
    build.errors = result.non2xx + result.errors;
    build.peak = peak;
    await sleep(3000);
    build.after = rssMegabytes(pid);
  } finally {
    await stop(started.child);
    rmSync(build.dataDir, { recursive: true, force: true });
  }
}

const mark = (value, budget) => (value <= budget ? '' : ' (over)');
console.info(
  `\n${ENTRY}${NODE_FLAGS.length ? ` with ${NODE_FLAGS.join(' ')}` : ''}; budgets: start ≤ ${BUDGET.startMs} ms, idle ≤ ${BUDGET.idleMb} MB, peak ≤ ${BUDGET.peakMb} MB\n`,
);
console.info(
  '| build | node | cold start, median (range) | idle RSS | peak RSS, 20k lists | RSS 3 s after | CPU µs/list |',
);
console.info('|---|---|--:|--:|--:|--:|--:|');
for (const b of builds) {
  const startMs = median(b.starts);
  console.info(
    `| ${b.label}: ${[...b.flags, b.entry].join(' ')} | ${b.version} | ${Math.round(startMs)} ms (${Math.round(Math.min(...b.starts))}-${Math.round(Math.max(...b.starts))})${mark(startMs, BUDGET.startMs)} | ${b.idle.toFixed(0)} MB${mark(b.idle, BUDGET.idleMb)} | ${b.peak.toFixed(0)} MB${mark(b.peak, BUDGET.peakMb)} | ${b.after.toFixed(0)} MB | ${Math.round(b.cpuPerRequest)}${b.errors ? ` (${b.errors} errors)` : ''} |`,
  );
}
