// `node bench/filters.mjs [--todos=10000] [--rounds=10] [--requests=20] [--port=4151]`
// Filters over a user with N todos (5 groups, planned, the task model's tags, priorities and
// subtasks; seed.mjs), on the production build (server/dist) with a fresh SQLite DATA_DIR:
// - the server's CPU time (all threads, /proc/<pid>/task/*/schedstat) per GET /api/todos?filter=
//   against per GET /api/todos (the plain whole list), in alternating rounds; the budget is
//   filter/list ≤ 1.2 (docs/performance.md, Filters);
// - the contract's evaluator (what the web app runs over its cached todos) over the same N
//   todos as the API answers them: median of the runs, cold (first read of each todo's search
//   words) and warm; the budget is a median under 20 ms.
// Needs `npm run build` first. Prints a table; results stay out of git.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { waitUntilHealthy } from './lib/server.mjs';
import { createDatabase, seed } from './lib/seed.mjs';
import { signAccessToken } from './lib/tokens.mjs';
import { median } from './lib/measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((arg) => /^--([^=]+)=(.*)$/.exec(arg))
    .filter(Boolean)
    .map((match) => [match[1], match[2]]),
);
const N = Number(args.todos ?? 10_000);
const ROUNDS = Number(args.rounds ?? 10);
const REQUESTS = Number(args.requests ?? 20);
const PORT = Number(args.port ?? 4151);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const JWT_SECRET = 'bench-secret-that-is-at-least-32-bytes-long!!';
// The seeded account has no zone of its own: the server reads its filters' dates in UTC.
const ZONE = 'UTC';

/** From a filter that keeps little to one that keeps every todo (the answer's size counts). */
const QUERIES = [
  '(#Group 1 | p1) & !subtask',
  'next 7 days | overdue',
  '@work | no tags, completed & created after: 30 days ago',
  'completed | !completed',
];

const { filterTodos, parseFilter, wallClockIn } = await import(
  pathToFileURL(path.join(root, 'contract/dist/filters/filter-query.js')).href
);

function threadsCpuNs(pid) {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended while we read
    }
  }
  return total;
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-filters-bench-'));
const target = await createDatabase({ dialect: 'sqlite', dataDir });
const users = await seed(target, [
  { username: 'filters', groups: 5, todos: N, events: 0, planned: true, taskModel: true },
]);
const user = users.get('filters');
const server = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
  cwd: root,
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
});

try {
  await waitUntilHealthy(ORIGIN, { child: server });
  const token = await signAccessToken(JWT_SECRET, {
    id: user.id,
    username: 'filters',
    sessionId: user.sessionId,
  });
  const headers = { authorization: `Bearer ${token}` };
  const get = async (url) => {
    const response = await fetch(`${ORIGIN}${url}`, { headers });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  /** Server CPU ns per request of `url`, over REQUESTS sequential requests. */
  const cpuPerRequest = async (url) => {
    const before = threadsCpuNs(server.pid);
    for (let i = 0; i < REQUESTS; i += 1) await get(url);
    return (threadsCpuNs(server.pid) - before) / REQUESTS;
  };

  const all = await get('/api/todos');
  const groups = await get('/api/todo-groups');
  console.log(`${all.length} todos, ${ROUNDS} rounds of ${REQUESTS} requests each, SQLite`);
  // Warm both paths (statement caches, JIT) before measuring.
  await cpuPerRequest('/api/todos');
  for (const query of QUERIES)
    await cpuPerRequest(`/api/todos?filter=${encodeURIComponent(query)}`);

  const rows = [];
  for (const query of QUERIES) {
    const url = `/api/todos?filter=${encodeURIComponent(query)}`;
    const answered = (await get(url)).length;
    const ratios = [];
    const listUs = [];
    const filterUs = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternating which goes first, so a trend in the machine's load favours neither.
      let l;
      let f;
      if (round % 2 === 0) {
        l = await cpuPerRequest('/api/todos');
        f = await cpuPerRequest(url);
      } else {
        f = await cpuPerRequest(url);
        l = await cpuPerRequest('/api/todos');
      }
      listUs.push(l / 1000);
      filterUs.push(f / 1000);
      ratios.push(f / l);
    }

    const { today, time } = wallClockIn(Date.now(), ZONE);
    const context = { today, time, timeZone: ZONE, groups };
    const cold = [];
    const warm = [];
    let shown = 0;
    for (let run = 0; run < 15; run += 1) {
      // Fresh objects: the evaluator remembers each todo's search words by object.
      const todos = all.map((todo) => ({ ...todo }));
      let start = performance.now();
      shown = filterTodos(parseFilter(query, context), todos).length;
      cold.push(performance.now() - start);
      start = performance.now();
      filterTodos(parseFilter(query, context), todos);
      warm.push(performance.now() - start);
    }
    if (shown !== answered) throw new Error(`${query}: evaluator ${shown}, server ${answered}`);
    rows.push({
      query,
      todos: answered,
      'list µs/req': Math.round(median(listUs)),
      'filter µs/req': Math.round(median(filterUs)),
      'filter/list': median(ratios).toFixed(2),
      'evaluator ms cold': median(cold).toFixed(1),
      'evaluator ms warm': median(warm).toFixed(1),
    });
  }
  console.table(rows);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
