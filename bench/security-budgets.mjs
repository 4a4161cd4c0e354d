// `node bench/security-budgets.mjs`: the bounds of the calendar feed and of imports
// (docs/performance.md, "Feed and import bounds"). Starts the built server (`npm run build`, or
// `npx tsc -b contract server`, first) on a free loopback port with a fresh DATA_DIR (SQLite),
// makes its data through the API (register, import, calendar address) and prints, for each case,
// the answer's size and time and the slowest GET /api/health of a probe that asks every 10 ms
// meanwhile (the event loop's longest stall, seen from outside):
// - the hostile feed: 400 todos repeating monthly on the 30th and one due 9999-12 (budget: a
//   small answer, health within 100 ms);
// - the feed of 10,000 todos (dates, times, repeats, groups): the first answer (written), the
//   median of 5 more (kept), and 5 with If-None-Match (304) (budget: under 1 s and 5 MB);
// - 10 MB Todoist CSVs: 109,000 short rows (refused at the 10,001st todo) and 9,700 rows with
//   1 KB descriptions (imported), with the server's peak RSS (budget: health within 100 ms);
// - Tally exports of 26 KB and 175 KB whose todos have no id and whose completions name none
//   (before: every completion went to every such todo): rows written and time.
// Flags: --dir=<checkout> (another build, e.g. the code before these bounds), --port=N (default: a
// free one), --dialects=sqlite,postgres (default sqlite; PostgreSQL:
// BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres, must be able to create and
// drop the database tally_bench_security). Writes nothing but its temporary DATA_DIR.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase, dropDatabase } from './lib/seed.mjs';
import { waitUntilHealthy } from './lib/server.mjs';
import { median, option, rssMegabytes } from './lib/measure.mjs';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** The checkout whose server/dist is measured (another build: --dir=<checkout>). */
const root = path.resolve(option('dir') ?? here);
const HEALTH_BUDGET_MS = 100;
const FEED_BUDGET_MS = 1000;
const FEED_BUDGET_BYTES = 5 * 1024 * 1024;
const MB = 1024 * 1024;

/** A port nothing listens on now. */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const dialects = (option('dialects') ?? 'sqlite').split(',');
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'tally_bench_security';
let base;
let child;

/** Starts the built server on a fresh database of the dialect; stops it when `run` is done. */
async function withServer(dialect, run) {
  const port = Number(option('port') ?? (await freePort()));
  base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-bench-security-'));
  const target = await createDatabase({ dialect, dataDir, adminUrl, dbName: DB_NAME });
  child = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-secret-that-is-at-least-32-bytes-long!!',
      DATA_DIR: dataDir,
      DATABASE_URL: target.databaseUrl ?? '',
      REDIS_URL: '',
      WEB_CONCURRENCY: '1',
      PUBLIC_URL: base,
      METRICS_TOKEN,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitUntilHealthy(base, { child });
    console.info(`\n${dialect}: Tally on ${base}; load average ${os.loadavg()[0].toFixed(1)}`);
    await run();
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await dropDatabase({ dialect, dataDir, adminUrl, dbName: DB_NAME });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const METRICS_TOKEN = 'bench-metrics-token-of-32-characters';

/**
 * The event loop's longest delay (ms) inside the server since the last call: prom-client's
 * nodejs_eventloop_lag_max_seconds, which each scrape starts again.
 */
async function loopLagMax() {
  const response = await fetch(`${base}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const line = /^tally_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(await response.text());
  return Number(line?.[1] ?? NaN) * 1000;
}

/**
 * Runs `work` while GET /api/health is asked every 10 ms (one at a time) and the server's RSS
 * read every 20 ms: the work's result, its time, the slowest health answer and the peak RSS.
 */
async function measured(work) {
  let running = true;
  let slowest = 0;
  let peak = rssMegabytes(child.pid);
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      // A server that stopped answers nothing: the work's own error says so.
      await fetch(`${base}/api/health`).catch(() => undefined);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMegabytes(child.pid));
  }, 20);
  await loopLagMax();
  const started = performance.now();
  let result;
  let ms;
  try {
    result = await work();
    ms = performance.now() - started;
  } finally {
    running = false;
    clearInterval(sampler);
    await probe;
  }
  return { result, ms, slowest, peak, lag: await loopLagMax() };
}

let users = 0;
/** A new account (imports are limited per account per minute): its bearer header. */
async function account() {
  users += 1;
  const username = `bench-security-${users}`;
  const response = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      password: 'correct horse battery',
    }),
  });
  if (response.status !== 201) throw new Error(`register: ${await response.text()}`);
  return `Bearer ${(await response.json()).accessToken}`;
}

async function importFile(auth, format, text, dryRun = false) {
  const form = new FormData();
  form.append('format', format);
  form.append('dryRun', String(dryRun));
  form.append('file', new Blob([text]), 'file');
  const response = await fetch(`${base}/api/import`, {
    method: 'POST',
    headers: { authorization: auth, 'x-time-zone': 'Europe/Berlin' },
    body: form,
  });
  return { status: response.status, body: await response.json() };
}

async function feedOf(auth) {
  const response = await fetch(`${base}/api/account/calendar`, {
    method: 'POST',
    headers: { authorization: auth, 'x-time-zone': 'Europe/Berlin' },
  });
  if (response.status !== 201) throw new Error(`calendar: ${await response.text()}`);
  return `${base}${(await response.json()).path}`;
}

async function fetchFeed(url, headers = {}) {
  const response = await fetch(url, { headers });
  const body = await response.arrayBuffer();
  return { status: response.status, bytes: body.byteLength, etag: response.headers.get('etag') };
}

const tallyFile = (todos, completions = []) =>
  JSON.stringify({ version: 1, groups: [], todos, completions });

async function totalCompleted(auth) {
  const response = await fetch(`${base}/api/statistics/total`, {
    headers: { authorization: auth },
  });
  return (await response.json()).todosCompleted;
}

const ms = (value) => `${value.toFixed(0)} ms`;
const health = ({ slowest, lag }) =>
  `slowest /api/health ${ms(slowest)} (budget ${HEALTH_BUDGET_MS})${slowest > HEALTH_BUDGET_MS ? ' OVER' : ''}, event loop's longest delay ${ms(lag)}`;

async function measureAll() {
  // 1. The hostile feed.
  {
    const auth = await account();
    const thirtieth = { every: 1, unit: 'month', monthDay: 30, from: 'due' };
    const todos = Array.from({ length: 400 }, (_, i) => ({
      id: i + 1,
      title: `Rent ${i}`,
      dueDate: '2026-01-30',
      repeat: thirtieth,
    }));
    todos.push({ id: 401, title: 'Far away', dueDate: '9999-12-01' });
    const made = await importFile(auth, 'tally-json', tallyFile(todos));
    if (made.status !== 200) throw new Error(`import: ${JSON.stringify(made.body)}`);
    const url = await feedOf(auth);
    const measure = await measured(() => fetchFeed(url));
    const { result, ms: time } = measure;
    console.info(
      `hostile feed (400 monthly 30th + 9999-12): ${result.status}, ${(result.bytes / 1024).toFixed(1)} KB, ${ms(time)}; ${health(measure)}`,
    );
  }

  // 2. The feed of 10,000 todos.
  {
    const auth = await account();
    const repeats = [
      null,
      null,
      { every: 1, unit: 'day', from: 'due' },
      { every: 1, unit: 'week', weekdays: ['mon', 'thu'], from: 'due' },
      { every: 1, unit: 'month', monthDay: 30, from: 'due' },
      { every: 2, unit: 'week', from: 'completion' },
      { every: 1, unit: 'year', from: 'due' },
    ];
    const groups = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, name: `Group ${i}` }));
    const todos = Array.from({ length: 10_000 }, (_, i) => {
      const due = new Date(Date.UTC(2026, 10, 1) + (i % 730) * 86_400_000).toISOString();
      const repeat = repeats[i % repeats.length];
      return {
        id: i + 1,
        title: `Todo ${i}: call the plumber about the kitchen sink`,
        description: i % 4 === 0 ? `Notes for ${i}, with a comma; and a second line\nhere` : null,
        groupId: i % 3 === 0 ? null : (i % 8) + 1,
        // A monthly 30th rule needs a due date on a 30th.
        dueDate: repeat?.monthDay
          ? `${due.slice(0, 8)}${due.slice(5, 7) === '02' ? 28 : 30}`
          : due.slice(0, 10),
        dueTime: i % 3 === 0 ? `${String(8 + (i % 10)).padStart(2, '0')}:30` : null,
        repeat,
      };
    });
    const made = await importFile(
      auth,
      'tally-json',
      JSON.stringify({ version: 1, groups, todos, completions: [] }),
    );
    if (made.status !== 200) throw new Error(`import: ${JSON.stringify(made.body)}`);
    const url = await feedOf(auth);
    const first = await measured(() => fetchFeed(url));
    const kept = [];
    for (let i = 0; i < 5; i++) kept.push((await measured(() => fetchFeed(url))).ms);
    const notModified = [];
    for (let i = 0; i < 5; i++) {
      const answer = await measured(() => fetchFeed(url, { 'if-none-match': first.result.etag }));
      if (answer.result.status !== 304)
        throw new Error(`expected 304, got ${answer.result.status}`);
      notModified.push(answer.ms);
    }
    const over = first.result.bytes > FEED_BUDGET_BYTES || first.ms > FEED_BUDGET_MS ? ' OVER' : '';
    console.info(
      `feed of 10,000 todos: ${(first.result.bytes / MB).toFixed(2)} MB; written ${ms(first.ms)}, kept median ${ms(median(kept))}, 304 median ${ms(median(notModified))} (budget ${FEED_BUDGET_MS} ms, 5 MB)${over}; while written ${health(first)}`,
    );
  }

  // 3. 10 MB Todoist CSVs.
  const header =
    'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE';
  const csvOf = (description) => {
    const lines = [header];
    let size = header.length;
    for (let i = 0; size < 10 * MB - 2_000; i++) {
      const line = `task,Buy item ${i} for the house,"${description}",4,1,,,every mon at 9am,en,Europe/Berlin`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join('\n');
  };
  for (const [name, text, dryRun] of [
    ['short rows (refused at the limit)', csvOf('Notes, with a comma'), false],
    ['1 KB descriptions, preview', csvOf('Notes, with a comma. '.repeat(48)), true],
    ['1 KB descriptions, imported', csvOf('Notes, with a comma. '.repeat(48)), false],
  ]) {
    const auth = await account();
    const rows = text.split('\n').length - 1;
    const measure = await measured(() => importFile(auth, 'todoist-csv', text, dryRun));
    const { result, ms: time } = measure;
    const answer = result.status === 200 ? `${result.body.todos.created} todos` : result.body.error;
    console.info(
      `Todoist CSV ${(text.length / MB).toFixed(1)} MB, ${rows} rows, ${name}: ${result.status} (${answer}), ${ms(time)}, peak RSS ${measure.peak.toFixed(0)} MB; ${health(measure)}`,
    );
  }

  // 4. Tally exports whose completions name no todo.
  for (const [todoCount, completionCount] of [
    [300, 300],
    [2_000, 2_400],
  ]) {
    const auth = await account();
    const text = tallyFile(
      Array.from({ length: todoCount }, (_, i) => ({ title: `T${i}` })),
      Array.from({ length: completionCount }, (_, i) => ({
        todoId: null,
        completedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      })),
    );
    let outcome;
    try {
      outcome = await measured(() => importFile(auth, 'tally-json', text));
    } catch (error) {
      const size = (text.length / 1024).toFixed(0);
      console.info(`Tally JSON ${size} KB: no answer (${error.message}; exit ${child.exitCode})`);
      return;
    }
    const { result, ms: time } = outcome;
    const completions = await totalCompleted(auth);
    console.info(
      `Tally JSON ${(text.length / 1024).toFixed(0)} KB (${todoCount} todos without id, ${completionCount} completions naming none): ${result.status}, ${result.body.todos?.created ?? 0} todos and ${completions} completions written, ${ms(time)}; skipped: ${result.body.skipped?.map((s) => s.reason).join('; ')}; ${health(outcome)}`,
    );
  }
}

for (const dialect of dialects) await withServer(dialect, measureAll);
