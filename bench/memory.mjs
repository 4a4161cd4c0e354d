// `node bench/memory.mjs`: the server's resident memory (VmRSS of /proc/<pid>/status) right after
// start and under the benchmark's load, on SQLite (docs/performance.md, Memory). Seeds a database
// as run.mjs does (lib/seed.mjs: a 200-todo list, 100k statistics events, 200 users), starts the
// built server (`npm run build` first; --dir=<release or checkout> for another build, e.g.
// release/tally-<version>), reads its RSS one second after /api/health answers, then drives the
// read and write calls of run.mjs with autocannon (50 connections), samples RSS every 100 ms and
// prints the server's CPU time per request (/proc/<pid>/stat, 10 ms ticks: a rough figure beside
// run.mjs's), so a V8 flag's memory and CPU can be weighed together.
// Flags: --dir=<folder with server/dist>, --entry=<file in it> (default server/dist/main.js;
// server/dist/main.bundle.js in a release), --seconds=N per call (default 4), --node=<flag,flag>
// (e.g. --node=--max-semi-space-size=4), --snapshot (writes a heap snapshot of the idle server
// to bench/results/ through --heapsnapshot-signal=SIGUSR2). With METRICS_TOKEN set (16+
// characters) it also prints the V8 heap's spaces after the load, read from GET /metrics.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createDatabase, dropDatabase, seed } from './lib/seed.mjs';
import { waitUntilHealthy } from './lib/server.mjs';
import { signAccessToken } from './lib/tokens.mjs';
import { option } from './lib/measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const args = process.argv.slice(2);
const DIR = path.resolve(option('dir') ?? root);
const SECONDS = Number(option('seconds') ?? 4);
const NODE_FLAGS = option('node')?.split(',') ?? [];
const SNAPSHOT = args.includes('--snapshot');
/** The server's entry in --dir: the release package's bundle is server/dist/main.bundle.js. */
const ENTRY = option('entry') ?? 'server/dist/main.js';
const PORT = 4111;
const JWT_SECRET = 'bench-secret-that-is-at-least-32-bytes-long!!';
const IDLE_BUDGET_MB = 60;
const LOAD_BUDGET_MB = 120;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The process's CPU time so far (user + system, all threads), in microseconds. */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

function rssMegabytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

const dataDir = path.join(os.tmpdir(), 'tally-bench-memory');
const target = await createDatabase({ dialect: 'sqlite', dataDir });
const plans = [
  { username: 'bench-list', groups: 5, todos: 200, events: 0, planned: true },
  { username: 'bench-write', groups: 5, todos: 200, events: 0 },
  { username: 'bench-stats', groups: 5, todos: 20, events: 100_000 },
];
for (let i = 0; i < 200; i++) {
  plans.push({ username: `many-${String(i).padStart(4, '0')}`, groups: 2, todos: 20, events: 0 });
}
const users = await seed(target, plans);
const bearer = new Map();
for (const [name, user] of users) {
  const token = await signAccessToken(JWT_SECRET, {
    id: user.id,
    username: name,
    sessionId: user.sessionId,
  });
  bearer.set(name, `Bearer ${token}`);
}

const child = spawn(
  process.execPath,
  [...NODE_FLAGS, ...(SNAPSHOT ? ['--heapsnapshot-signal=SIGUSR2'] : []), path.join(DIR, ENTRY)],
  {
    cwd: SNAPSHOT ? path.join(here, 'results') : root,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      WEB_CONCURRENCY: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
if (SNAPSHOT) mkdirSync(path.join(here, 'results'), { recursive: true });
const base = `http://127.0.0.1:${PORT}`;
try {
  await waitUntilHealthy(base, { child });
  await sleep(1000);
  const idle = rssMegabytes(child.pid);
  console.info(`idle, 1 s after start: ${idle.toFixed(1)} MB (budget ${IDLE_BUDGET_MB})`);
  if (SNAPSHOT) {
    child.kill('SIGUSR2');
    await sleep(3000);
    console.info(`heap snapshot written to ${path.join(here, 'results')}`);
  }

  const write = users.get('bench-write');
  const many = [...bearer.keys()].filter((name) => name.startsWith('many-'));
  const json = { 'content-type': 'application/json' };
  const calls = [
    {
      name: 'list todos (200)',
      path: '/api/todos',
      headers: { authorization: bearer.get('bench-list') },
    },
    {
      name: 'today view',
      path: '/api/todos?view=today',
      headers: { authorization: bearer.get('bench-list'), 'x-time-zone': 'Europe/Berlin' },
    },
    {
      name: 'groups',
      path: '/api/todo-groups',
      headers: { authorization: bearer.get('bench-list') },
    },
    {
      name: 'statistics total (100k)',
      path: '/api/statistics/total',
      headers: { authorization: bearer.get('bench-stats'), 'x-time-zone': 'Europe/Berlin' },
    },
    {
      name: 'many users (list)',
      path: '/api/todos',
      headers: { authorization: bearer.get(many[0]) },
      setupRequest: (request) => ({
        ...request,
        headers: {
          ...request.headers,
          authorization: bearer.get(many[Math.floor(Math.random() * many.length)]),
        },
      }),
    },
    {
      name: 'create todo',
      method: 'POST',
      path: '/api/todos',
      headers: { authorization: bearer.get('bench-write'), ...json },
      body: JSON.stringify({
        title: 'A todo created by the benchmark',
        groupId: write.groupIds[0],
      }),
    },
    {
      name: 'toggle completed',
      method: 'PUT',
      path: `/api/todos/${write.todoIds[0]}`,
      headers: { authorization: bearer.get('bench-write'), ...json },
      setupRequest: (request) => {
        const i = Math.floor(Math.random() * write.todoIds.length);
        return {
          ...request,
          path: `/api/todos/${write.todoIds[i]}`,
          body: JSON.stringify({
            title: `Todo number ${i}: water the plants and call the bank`,
            groupId: write.groupIds[i % write.groupIds.length],
            completed: Math.random() < 0.5,
          }),
        };
      },
    },
  ];
  let peak = idle;
  for (const call of calls) {
    let callPeak = 0;
    const cpuBefore = cpuMicros(child.pid);
    const sampler = setInterval(() => {
      callPeak = Math.max(callPeak, rssMegabytes(child.pid));
    }, 100);
    const result = await autocannon({
      url: base,
      connections: 50,
      duration: SECONDS,
      requests: [
        {
          method: call.method ?? 'GET',
          path: call.path,
          headers: call.headers,
          ...(call.body ? { body: call.body } : {}),
          ...(call.setupRequest ? { setupRequest: call.setupRequest } : {}),
        },
      ],
    });
    clearInterval(sampler);
    const cpuPerRequest = (cpuMicros(child.pid) - cpuBefore) / result.requests.total;
    peak = Math.max(peak, callPeak);
    const errors = result.non2xx + result.errors;
    console.info(
      `${call.name.padEnd(26)} ${String(Math.round(result.requests.average)).padStart(6)} req/s, ${Math.round(cpuPerRequest).toString().padStart(5)} µs CPU/req, peak RSS ${callPeak.toFixed(1)} MB${errors ? `, ${errors} errors` : ''}`,
    );
  }
  await sleep(2000);
  if (process.env.METRICS_TOKEN) {
    // Where the heap is after the load, by V8 space (GET /metrics, prom-client's default metrics).
    const metrics = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${process.env.METRICS_TOKEN}` },
    });
    for (const line of (await metrics.text()).split('\n')) {
      const match = /^tally_nodejs_heap_space_size_(total|used)_bytes\{space="(\w+)"\} (\d+)/.exec(
        line,
      );
      if (match && Number(match[3]) > 1e6)
        console.info(`  ${match[2]} ${match[1]}: ${(Number(match[3]) / 1048576).toFixed(1)} MB`);
    }
  }
  console.info(
    `peak under load: ${peak.toFixed(1)} MB (budget ${LOAD_BUDGET_MB}); 2 s after: ${rssMegabytes(child.pid).toFixed(1)} MB`,
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await dropDatabase({ dialect: 'sqlite', dataDir });
}
