// `npm run bench`: seeds SQLite and PostgreSQL, starts Tally, the reference (bare Fastify + raw
// driver, same SQL) and the ceiling (bare Fastify, constant body of the same size) as separate
// processes on loopback, and drives each scenario with autocannon from this process, bounded in
// time. Prints a table and writes JSON + Markdown to bench/results/.
//
// Flags (or env): --quick (BENCH_QUICK=1) short smoke run; --only=a,b scenario keys;
// --dialects=sqlite,postgres (BENCH_DIALECTS); --no-growth; --no-scaling; --profile (Tally runs
// with --cpu-prof, profiles in bench/results/profiles/); BENCH_PG_URL admin URL
// (default postgres://postgres@127.0.0.1:5432/postgres); BENCH_DURATION seconds per measurement.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createAccessTokens } from '../server/dist/plugins/authentication.js';
import { createDatabase, dropDatabase, PASSWORD, seed } from './lib/seed.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const resultsDir = path.join(here, 'results');
const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];

const QUICK = flag('quick') || process.env.BENCH_QUICK === '1';
const DURATION = Number(process.env.BENCH_DURATION ?? (QUICK ? 2 : 5));
const WARMUP = QUICK ? 1 : 2;
const ROUNDS = QUICK ? 1 : 3;
const ROUND_DURATION = QUICK ? DURATION : Math.max(1, Math.floor(DURATION / 2));
const GROWTH_DURATION = QUICK ? 1 : 3;
const CONNECTIONS = 50;
const DIALECTS = (option('dialects') ?? process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',');
const ONLY = option('only')?.split(',') ?? null;
const GROWTH = !flag('no-growth') && ONLY === null;
const SCALING = !flag('no-scaling') && ONLY === null;
const PROFILE = flag('profile');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const JWT_SECRET = 'bench-secret-that-is-at-least-32-bytes-long!!';
const PORTS = { tally: 4101, reference: 4102, ceiling: 4103 };
const STATS_ZONE = 'Europe/Berlin';
const GROWTH_TODOS = QUICK ? [10, 100, 1000] : [10, 100, 1000, 10_000];
const GROWTH_EVENTS = QUICK ? [1000, 10_000, 100_000] : [1000, 10_000, 100_000, 1_000_000];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Processes

function startProcess(name, script, env, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (!child.stopping) console.error(`${name} exited unexpectedly (${code ?? signal})`);
  });
  return child;
}

async function waitUntilUp(port, child) {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return;
    } catch {
      // not yet listening
    }
    await sleep(100);
  }
  throw new Error(`server on ${port} did not start`);
}

async function stopProcess(child) {
  if (!child || child.exitCode !== null) return;
  child.stopping = true;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

const running = new Set();
async function stopAll() {
  await Promise.all([...running].map(stopProcess));
  running.clear();
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    void stopAll().finally(() => process.exit(130));
  });
}

function tallyEnv(target, extra = {}) {
  return {
    PORT: String(PORTS.tally),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    JWT_SECRET,
    DATA_DIR: target.dataDir,
    DATABASE_URL: target.databaseUrl ?? '',
    REDIS_URL: '',
    WEB_CONCURRENCY: '1',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_ATTEMPTS_PER_ACCOUNT: '1000000',
    ...extra,
  };
}

async function startTally(target, extra = {}, label = 'tally') {
  const nodeArgs = PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${path.join(resultsDir, 'profiles', target.dialect)}`]
    : [];
  const child = startProcess(
    label,
    path.join(root, 'server/dist/main.js'),
    tallyEnv(target, extra),
    nodeArgs,
  );
  running.add(child);
  await waitUntilUp(PORTS.tally, child);
  return child;
}

async function startReference(target) {
  const child = startProcess('reference', path.join(here, 'servers/reference.mjs'), {
    PORT: String(PORTS.reference),
    DIALECT: target.dialect,
    DATABASE_FILE: target.file ?? '',
    DATABASE_URL: target.databaseUrl ?? '',
    JWT_SECRET,
  });
  running.add(child);
  await waitUntilUp(PORTS.reference, child);
  return child;
}

async function startCeiling() {
  const child = startProcess('ceiling', path.join(here, 'servers/ceiling.mjs'), {
    PORT: String(PORTS.ceiling),
  });
  running.add(child);
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`http://127.0.0.1:${PORTS.ceiling}/c/none`);
      return child;
    } catch {
      await sleep(100);
    }
  }
  throw new Error('ceiling did not start');
}

/** Resident memory of a process in MB, from /proc (Linux). */
function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Load

/**
 * Waits until the server answers its health check at once again: after the large answers of
 * the growth table, queued responses keep it busy for seconds after the load stops.
 */
async function settle(port) {
  const deadline = Date.now() + 15_000;
  let quick = 0;
  while (quick < 3 && Date.now() < deadline) {
    const started = performance.now();
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    quick = ok && performance.now() - started < 10 ? quick + 1 : 0;
    await sleep(100);
  }
  if (quick < 3) console.info(`(server on ${port} still busy after 15 s; measuring anyway)`);
}

async function load({ port, request, duration, pid }) {
  let peakRss = 0;
  const sampler = pid
    ? setInterval(() => {
        peakRss = Math.max(peakRss, rssMb(pid));
      }, 250)
    : null;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    timeout: 10,
    requests: [request],
  });
  if (sampler) clearInterval(sampler);
  const errors = result.errors + result.timeouts + result.non2xx;
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {})
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, stats]) => [code, stats.count]),
  );
  // Let the server finish what was in flight, so the next server measured (on the same SQLite
  // file) does not meet this one's last transactions.
  await sleep(500);
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
    ...(errors > 0
      ? { errorDetail: { ...statuses, socket: result.errors, timeouts: result.timeouts } }
      : {}),
    requests: result.requests.total,
    peakRssMb: pid ? Math.round(peakRss) : null,
  };
}

async function measure(target) {
  if (WARMUP > 0) await load({ ...target, duration: WARMUP, pid: null });
  return load({ ...target, duration: DURATION });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/**
 * Measures the targets in ROUNDS alternating rounds (after one warm-up each) and keeps the
 * median of each figure, so a burst of other work on the machine skews one round of one target
 * rather than the ratio between them.
 */
async function compare(targets) {
  for (const target of Object.values(targets)) {
    if (WARMUP > 0) await load({ ...target, duration: WARMUP, pid: null });
  }
  const rounds = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, target] of Object.entries(targets)) {
      rounds[name].push(await load({ ...target, duration: ROUND_DURATION }));
    }
  }
  return Object.fromEntries(
    Object.entries(rounds).map(([name, results]) => [
      name,
      {
        rps: median(results.map((r) => r.rps)),
        p50: median(results.map((r) => r.p50)),
        p99: median(results.map((r) => r.p99)),
        errors: results.reduce((sum, r) => sum + r.errors, 0),
        errorDetail: results.map((r) => r.errorDetail).filter(Boolean),
        requests: results.reduce((sum, r) => sum + r.requests, 0),
        peakRssMb:
          results[0].peakRssMb === null ? null : Math.max(...results.map((r) => r.peakRssMb)),
        rounds: results.map((r) => r.rps),
      },
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// Scenarios

function daysAgo(days, zone) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(Date.now() - days * 86_400_000));
  return parts;
}

const MANY_USERS = QUICK ? 200 : 1000;

function seedPlans() {
  const plans = [
    { username: 'bench-list', groups: 5, todos: 200, events: 0 },
    { username: 'bench-write', groups: 5, todos: 200, events: 0 },
    { username: 'bench-stats', groups: 5, todos: 20, events: 100_000 },
    { username: 'bench-login', groups: 0, todos: 0, events: 0 },
  ];
  for (let i = 0; i < MANY_USERS; i++) {
    plans.push({ username: `many-${String(i).padStart(4, '0')}`, groups: 2, todos: 20, events: 0 });
  }
  if (GROWTH) {
    for (const n of GROWTH_TODOS)
      plans.push({ username: `todos-${n}`, groups: 5, todos: n, events: 0 });
    for (const n of GROWTH_EVENTS)
      plans.push({ username: `events-${n}`, groups: 0, todos: 0, events: n });
  }
  return plans;
}

function buildScenarios(users, tokenOf) {
  const bearer = (username) => ({ authorization: `Bearer ${tokenOf(username)}` });
  const json = { 'content-type': 'application/json' };
  const stats = (username) => ({ ...bearer(username), 'x-time-zone': STATS_ZONE });
  const write = users.get('bench-write');
  const manyTokens = [...users.keys()]
    .filter((name) => name.startsWith('many-'))
    .map((name) => `Bearer ${tokenOf(name)}`);
  return [
    {
      key: 'list',
      name: 'list todos (200)',
      method: 'GET',
      path: '/api/todos',
      headers: bearer('bench-list'),
    },
    {
      key: 'create',
      name: 'create todo',
      method: 'POST',
      path: '/api/todos',
      headers: { ...bearer('bench-write'), ...json },
      body: JSON.stringify({
        title: 'A todo created by the benchmark',
        description: 'With a short description',
        groupId: write.groupIds[0],
      }),
    },
    {
      key: 'toggle',
      name: 'toggle completed',
      method: 'PUT',
      path: `/api/todos/${write.todoIds[0]}`,
      headers: { ...bearer('bench-write'), ...json },
      body: JSON.stringify({
        title: 'Todo number 0: water the plants and call the bank',
        description: 'Details for todo 0, a sentence or two of description text.',
        groupId: write.groupIds[0],
        completed: true,
      }),
      setupRequest: (request) => {
        const i = Math.floor(Math.random() * write.todoIds.length);
        return {
          ...request,
          path: `/api/todos/${write.todoIds[i]}`,
          body: JSON.stringify({
            title: `Todo number ${i}: water the plants and call the bank`,
            description:
              i % 2 === 0 ? `Details for todo ${i}, a sentence or two of description text.` : null,
            groupId: write.groupIds[i % write.groupIds.length],
            completed: Math.random() < 0.5,
          }),
        };
      },
    },
    {
      key: 'groups',
      name: 'list groups (5)',
      method: 'GET',
      path: '/api/todo-groups',
      headers: bearer('bench-list'),
    },
    {
      key: 'total',
      name: 'statistics total (100k events)',
      method: 'GET',
      path: '/api/statistics/total',
      headers: stats('bench-stats'),
      statistics: true,
    },
    {
      key: 'recent',
      name: 'statistics recent?days=30 (100k)',
      method: 'GET',
      path: '/api/statistics/recent?days=30',
      headers: stats('bench-stats'),
      statistics: true,
    },
    {
      key: 'since',
      name: 'statistics since 30 days (100k)',
      method: 'GET',
      path: `/api/statistics/since?since=${daysAgo(30, STATS_ZONE)}`,
      headers: stats('bench-stats'),
      statistics: true,
    },
    {
      key: 'many',
      name: `many users (${manyTokens.length}, list todos)`,
      method: 'GET',
      path: '/api/todos',
      headers: bearer('many-0000'),
      setupRequest: (request) => ({
        ...request,
        headers: {
          ...request.headers,
          authorization: manyTokens[Math.floor(Math.random() * manyTokens.length)],
        },
      }),
    },
    {
      key: 'login',
      name: 'login (argon2id, reported apart)',
      method: 'POST',
      path: '/api/auth/login',
      headers: json,
      body: JSON.stringify({ username: 'bench-login', password: PASSWORD }),
      apart: true,
    },
  ];
}

const requestOf = (scenario, pathOverride) => ({
  method: scenario.method,
  path: pathOverride ?? scenario.path,
  headers: scenario.headers,
  ...(scenario.body ? { body: scenario.body } : {}),
  ...(scenario.setupRequest && !pathOverride ? { setupRequest: scenario.setupRequest } : {}),
});

/** Sends the scenario once to Tally and gives its status and body (for the ceiling). */
async function sample(scenario) {
  const response = await fetch(`http://127.0.0.1:${PORTS.tally}${scenario.path}`, {
    method: scenario.method,
    headers: scenario.headers,
    body: scenario.body,
  });
  return { status: response.status, text: await response.text() };
}

// ---------------------------------------------------------------------------------------------
// Run

function loadAverage() {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

async function runDialect(dialect, report) {
  const target = await createDatabase({
    dialect,
    dataDir: path.join(os.tmpdir(), `tally-bench-${dialect}`),
    adminUrl: PG_ADMIN_URL,
    dbName: 'tally_bench',
  });
  const seedStarted = Date.now();
  const users = await seed(target, seedPlans());
  console.info(
    `\n## ${dialect}: seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s (load ${loadAverage()})`,
  );
  const tokens = createAccessTokens(JWT_SECRET, () => Date.now());
  const signed = new Map();
  for (const [name, user] of users)
    signed.set(name, await tokens.sign({ id: user.id, username: name }));
  const tokenOf = (name) => signed.get(name);

  let tally = await startTally(target);
  await startReference(target);
  await startCeiling();
  try {
    const scenarios = buildScenarios(users, tokenOf).filter((s) => !ONLY || ONLY.includes(s.key));
    for (const scenario of scenarios) {
      const body = await sample(scenario);
      if (body.status >= 300)
        console.error(`${scenario.key}: Tally answered ${body.status} ${body.text}`);
      await fetch(`http://127.0.0.1:${PORTS.ceiling}/__body/${scenario.key}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const row = {
        dialect,
        key: scenario.key,
        scenario: scenario.name,
        bytes: body.text.length,
        apart: Boolean(scenario.apart),
        statistics: Boolean(scenario.statistics),
      };
      Object.assign(
        row,
        await compare({
          ceiling: { port: PORTS.ceiling, request: requestOf(scenario, `/c/${scenario.key}`) },
          reference: { port: PORTS.reference, request: requestOf(scenario) },
          tally: { port: PORTS.tally, request: requestOf(scenario), pid: tally.pid },
        }),
      );
      row.load = loadAverage();
      report.scenarios.push(row);
      console.info(formatRow(row));
    }

    if (GROWTH) {
      for (const n of GROWTH_TODOS) {
        const request = {
          method: 'GET',
          path: '/api/todos',
          headers: { authorization: `Bearer ${tokenOf(`todos-${n}`)}` },
        };
        await settle(PORTS.tally);
        const bytes = (await sample(request)).text.length;
        const result = await load({
          port: PORTS.tally,
          request,
          duration: GROWTH_DURATION,
          pid: tally.pid,
        });
        report.growth.push({ dialect, kind: 'list todos', size: n, bytes, ...result });
        console.info(
          `growth ${dialect} list todos n=${n}: ${result.rps} req/s p99 ${result.p99} ms, ${bytes} B`,
        );
      }
      for (const n of GROWTH_EVENTS) {
        for (const [kind, pathname] of [
          ['statistics total', '/api/statistics/total'],
          ['statistics recent 30', '/api/statistics/recent?days=30'],
          ['statistics since 30', `/api/statistics/since?since=${daysAgo(30, STATS_ZONE)}`],
        ]) {
          const request = {
            method: 'GET',
            path: pathname,
            headers: {
              authorization: `Bearer ${tokenOf(`events-${n}`)}`,
              'x-time-zone': STATS_ZONE,
            },
          };
          await settle(PORTS.tally);
          const result = await load({
            port: PORTS.tally,
            request,
            duration: GROWTH_DURATION,
            pid: tally.pid,
          });
          report.growth.push({ dialect, kind, size: n, ...result });
          console.info(
            `growth ${dialect} ${kind} n=${n}: ${result.rps} req/s p99 ${result.p99} ms`,
          );
        }
      }
    }

    if (SCALING && dialect === 'postgres') {
      const request = {
        method: 'GET',
        path: '/api/todos',
        headers: { authorization: `Bearer ${tokenOf('bench-list')}` },
      };
      const one = await measure({ port: PORTS.tally, request });
      await stopProcess(tally);
      running.delete(tally);
      tally = await startTally(target, { WEB_CONCURRENCY: '2' }, 'tally x2');
      const two = await measure({ port: PORTS.tally, request });
      report.scaling = {
        scenario: 'list todos (200), PostgreSQL',
        one,
        two,
        factor: Number((two.rps / one.rps).toFixed(2)),
      };
      console.info(
        `scaling: 1 process ${one.rps} req/s, 2 processes ${two.rps} req/s (x${report.scaling.factor})`,
      );
    }
  } finally {
    await stopAll();
    await dropDatabase({
      dialect,
      dataDir: target.dataDir,
      adminUrl: PG_ADMIN_URL,
      dbName: 'tally_bench',
    });
  }
}

const pct = (a, b) => (b > 0 ? `${Math.round((100 * a) / b)} %` : '-');

function formatRow(row) {
  const t = row.tally;
  return `${row.dialect.padEnd(8)} ${row.scenario.padEnd(36)} ${String(t.rps).padStart(6)} req/s  p50 ${String(t.p50).padStart(4)} ms  p99 ${String(t.p99).padStart(4)} ms  err ${t.errors}  ref ${pct(t.rps, row.reference.rps)}  ceiling ${pct(t.rps, row.ceiling.rps)}`;
}

function budgets(report) {
  const checks = [];
  for (const row of report.scenarios) {
    const where = `${row.dialect} ${row.scenario}`;
    if (!row.apart) {
      checks.push({
        budget: `${where}: >= 85 % of reference`,
        ok: row.tally.rps >= 0.85 * row.reference.rps,
        value: pct(row.tally.rps, row.reference.rps),
      });
    }
    if (row.statistics)
      checks.push({
        budget: `${where}: p99 <= 50 ms`,
        ok: row.tally.p99 <= 50,
        value: `${row.tally.p99} ms`,
      });
    checks.push({
      budget: `${where}: zero errors`,
      ok: row.tally.errors === 0,
      value: String(row.tally.errors),
    });
  }
  // Login is reported apart: argon2id holds 19 MiB per hash on each of libuv's 4 threads.
  const sqliteRss = Math.max(
    0,
    ...report.scenarios
      .filter((r) => r.dialect === 'sqlite' && !r.apart)
      .map((r) => r.tally.peakRssMb ?? 0),
  );
  if (sqliteRss > 0)
    checks.push({
      budget: 'SQLite: server RSS <= 150 MB under load (login apart)',
      ok: sqliteRss <= 150,
      value: `${sqliteRss} MB`,
    });
  return checks;
}

function markdown(report) {
  const lines = [];
  lines.push(
    `Tally benchmark, ${report.date}: ${report.machine.cpus} × ${report.machine.cpuModel}, ${report.machine.memoryGb} GB, Node ${report.machine.node}, ${report.connections} connections, medians of ${report.rounds} alternating rounds of ${report.roundDuration} s per server${report.quick ? ' (quick mode)' : ''}.`,
  );
  lines.push('');
  lines.push(
    '| DB | Scenario | Tally req/s | p50 ms | p99 ms | errors | reference req/s | ceiling req/s | Tally/ref | Tally/ceiling | peak RSS MB |',
  );
  lines.push('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const r of report.scenarios) {
    lines.push(
      `| ${r.dialect} | ${r.scenario} | ${r.tally.rps} | ${r.tally.p50} | ${r.tally.p99} | ${r.tally.errors} | ${r.reference.rps} | ${r.ceiling.rps} | ${pct(r.tally.rps, r.reference.rps)} | ${pct(r.tally.rps, r.ceiling.rps)} | ${r.tally.peakRssMb} |`,
    );
  }
  if (report.growth.length > 0) {
    lines.push(
      '',
      '| DB | Growth | size | req/s | p50 ms | p99 ms | errors | body bytes |',
      '|---|---|--:|--:|--:|--:|--:|--:|',
    );
    for (const g of report.growth) {
      lines.push(
        `| ${g.dialect} | ${g.kind} | ${g.size} | ${g.rps} | ${g.p50} | ${g.p99} | ${g.errors} | ${g.bytes ?? ''} |`,
      );
    }
  }
  if (report.scaling) {
    const s = report.scaling;
    lines.push(
      '',
      `Scaling (${s.scenario}): 1 process ${s.one.rps} req/s (p99 ${s.one.p99} ms), 2 processes ${s.two.rps} req/s (p99 ${s.two.p99} ms): x${s.factor}.`,
    );
  }
  lines.push('', '| Budget | value | met |', '|---|--:|---|');
  for (const c of report.budgets)
    lines.push(`| ${c.budget} | ${c.value} | ${c.ok ? 'yes' : '**no**'} |`);
  return lines.join('\n');
}

const report = {
  date: new Date().toISOString(),
  quick: QUICK,
  connections: CONNECTIONS,
  duration: DURATION,
  rounds: ROUNDS,
  roundDuration: ROUND_DURATION,
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.versions.node,
    platform: `${os.platform()} ${os.release()}`,
  },
  loadBefore: loadAverage(),
  scenarios: [],
  growth: [],
  scaling: null,
  budgets: [],
};
console.info(
  `Tally benchmark on ${report.machine.cpus} cores (${report.machine.cpuModel}); load ${report.loadBefore}${QUICK ? '; quick mode' : ''}`,
);
const started = Date.now();
try {
  for (const dialect of DIALECTS) await runDialect(dialect, report);
} finally {
  await stopAll();
}
report.budgets = budgets(report);
report.seconds = Math.round((Date.now() - started) / 1000);
mkdirSync(resultsDir, { recursive: true });
const stamp = report.date.replace(/[:.]/g, '-');
const text = markdown(report);
writeFileSync(path.join(resultsDir, `bench-${stamp}.json`), JSON.stringify(report, null, 2));
writeFileSync(path.join(resultsDir, `bench-${stamp}.md`), `${text}\n`);
writeFileSync(path.join(resultsDir, 'latest.json'), JSON.stringify(report, null, 2));
writeFileSync(path.join(resultsDir, 'latest.md'), `${text}\n`);
console.info(
  `\n${text}\n\nFinished in ${report.seconds} s; results in bench/results/bench-${stamp}.{json,md}`,
);
