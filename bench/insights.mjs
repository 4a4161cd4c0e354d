// `node bench/insights.mjs` (after `npm run build`): latency of GET /api/statistics/insights for a
// user with 100,000 events over two years, and for one with 400,000 more events older than any
// range, on SQLite and PostgreSQL (BENCH_DIALECTS, BENCH_PG_URL), one request at a time (a
// person's own dashboard) and a few at once (BENCH_CONCURRENCY, default 1,4), each reported apart
// with the load average after it. Budget (docs/performance.md, Insights): p99 ≤ 50 ms,
// and the same cost whatever the number of events beyond the range. Run by hand, on loopback.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createDatabase, dropDatabase, seed } from './lib/seed.mjs';
import { waitUntilHealthy } from './lib/server.mjs';
import { openDatabase } from './lib/sql.mjs';
import { signAccessToken } from './lib/tokens.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECRET = 'bench-insights-secret-that-is-at-least-32-bytes';
/** BENCH_PORT: another port, with a database and data directory of its own (default 4111). */
const PORT = Number(process.env.BENCH_PORT ?? 4111);
const INSTANCE = process.env.BENCH_PORT ? `_${PORT}` : '';
const DAY = 86_400_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** The process's CPU time so far (user + system), in milliseconds, from /proc. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after "pid (comm) ".
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The roll-ups and completions the server writes with each change, rebuilt from the events. */
async function deriveFromEvents(target, oldEvents) {
  const db = openDatabase({
    dialect: target.dialect,
    file: target.file ?? undefined,
    url: target.databaseUrl ?? undefined,
  });
  try {
    for (const [userId, count] of oldEvents) {
      // Events three to five years ago: outside every range the insights can ask for.
      const rows = [];
      for (let i = 0; i < count; i++) {
        rows.push(userId, 'todosCompleted', Date.now() - 3 * 365 * DAY - i * 60_000);
      }
      for (let i = 0; i < rows.length; i += 3 * 1000) {
        const chunk = rows.slice(i, i + 3 * 1000);
        await db.query(
          `insert into statistic_events (user_id, type, occurred_at) values ${Array.from(
            { length: chunk.length / 3 },
            () => '(?, ?, ?)',
          ).join(', ')}`,
          chunk,
        );
      }
    }
    await db.query('delete from statistic_hours');
    const count = (type) => `sum(case when type = '${type}' then 1 else 0 end)`;
    await db.query(`insert into statistic_hours
        (user_id, hour, todos_created, todos_completed, groups_created, logins, todos_deleted)
      select user_id, occurred_at / 3600000, ${count('todosCreated')}, ${count('todosCompleted')},
        ${count('groupsCreated')}, ${count('logins')}, ${count('todosDeleted')}
      from statistic_events group by user_id, occurred_at / 3600000`);
    // Each completion took a few hours to a few days from creation; half had a due date.
    await db.query(`insert into todo_completions
        (user_id, todo_id, group_id, created_at, completed_at, due_date, on_time)
      select user_id, id, null, occurred_at - (id % 97) * 3600000, occurred_at,
        case when id % 2 = 0 then '2026-01-01' else null end,
        case when id % 2 = 0 then id % 3 % 2 else null end
      from statistic_events where type = 'todosCompleted'`);
    // On PostgreSQL only, as in lib/seed.mjs (decision 063).
    if (target.dialect === 'postgres') await db.query('analyze');
  } finally {
    await db.close();
  }
}

async function startTally(target) {
  const child = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: target.dataDir,
      DATABASE_URL: target.databaseUrl ?? '',
      JWT_SECRET: SECRET,
      LOG_LEVEL: 'silent',
      WEB_CONCURRENCY: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitUntilHealthy(`http://127.0.0.1:${PORT}`, { child, seconds: 20 });
  } catch (error) {
    child.kill();
    throw error;
  }
  return child;
}

/** Concurrencies measured: one person's own dashboard, and a few requests at once. */
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? '1,4').split(',').map(Number);

async function measure(pid, token, weeks, connections) {
  const url = `http://127.0.0.1:${PORT}/api/statistics/insights?weeks=${weeks}`;
  const headers = { authorization: `Bearer ${token}`, 'x-time-zone': 'Europe/Berlin' };
  const first = await fetch(url, { headers });
  if (!first.ok) throw new Error(`insights answered ${first.status}: ${await first.text()}`);
  const body = await first.json();
  await autocannon({ url, headers, connections, amount: 30 }); // warm-up
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({ url, headers, connections, amount: REQUESTS });
  const cpuPerRequest = (cpuMs(pid) - cpuBefore) / REQUESTS;
  return {
    connections,
    cpu: cpuPerRequest.toFixed(1),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.non2xx + result.errors,
    completedInRange: body.heatmap.reduce((sum, day) => sum + day.completed, 0),
    load: loadavg()
      .map((n) => n.toFixed(1))
      .join(' '),
  };
}

const rows = [];
for (const dialect of DIALECTS) {
  const target = await createDatabase({
    dialect,
    dataDir: path.join(tmpdir(), `tally-bench-insights-${dialect}${INSTANCE}`),
    adminUrl: PG_ADMIN_URL,
    dbName: `tally_bench_insights${INSTANCE}`,
  });
  const users = await seed(target, [
    { username: 'events100k', groups: 5, todos: 200, events: 100_000 },
    { username: 'plusOld400k', groups: 5, todos: 200, events: 100_000 },
  ]);
  await deriveFromEvents(target, [[users.get('plusOld400k').id, 400_000]]);
  const tally = await startTally(target);
  try {
    for (const [username, user] of users) {
      const token = await signAccessToken(SECRET, {
        id: user.id,
        username,
        sessionId: user.sessionId,
      });
      for (const weeks of [52, 104]) {
        for (const connections of CONCURRENCIES) {
          rows.push({
            dialect,
            user: username,
            weeks,
            ...(await measure(tally.pid, token, weeks, connections)),
          });
        }
      }
    }
  } finally {
    tally.kill('SIGTERM');
    await sleep(500);
    await dropDatabase({
      dialect,
      dataDir: target.dataDir,
      adminUrl: PG_ADMIN_URL,
      dbName: `tally_bench_insights${INSTANCE}`,
    });
  }
}

console.log(
  `\nGET /api/statistics/insights, ${REQUESTS} requests after 30 warm-up at each concurrency, Europe/Berlin`,
);
console.log(
  'dialect   user         weeks  conc  completed in range  server CPU ms/req  p50 ms  p99 ms  max ms  errors  load (1/5/15 min)',
);
for (const r of rows) {
  console.log(
    `${r.dialect.padEnd(9)} ${r.user.padEnd(12)} ${String(r.weeks).padStart(5)}  ${String(r.connections).padStart(4)}  ${String(r.completedInRange).padStart(18)}  ${r.cpu.padStart(17)}  ${String(r.p50).padStart(6)}  ${String(r.p99).padStart(6)}  ${String(r.max).padStart(6)}  ${String(r.errors).padStart(6)}  ${r.load}`,
  );
}
