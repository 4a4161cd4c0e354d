// `npm run bench`: seeds SQLite and PostgreSQL, starts Tally, two instances of the reference (bare
// Fastify + raw driver, same SQL) and the ceiling (bare Fastify, constant body of the same size)
// as separate processes on loopback, and drives each scenario with autocannon from this process.
//
// The headline figure is CPU time per request (decision 046): the server's own CPU (all its
// threads, /proc/<pid>/task/*/schedstat, in ns) over a fixed number of requests, divided by that
// number, in alternating rounds (A B / B A), medians reported. On PostgreSQL the CPU of the
// server's own database backends (found by application_name) is reported beside it. The two
// reference instances measured against each other (A/A) show the method's noise. Requests/s and
// latency are kept beside it; on 2 shared cores they move by up to 30 % between rounds.
//
// Flags (or env): --quick (BENCH_QUICK=1) short smoke run; --only=a,b scenario keys;
// --dialects=sqlite,postgres (BENCH_DIALECTS); --no-growth; --no-scaling; --profile (Tally and
// the reference run with --cpu-prof, profiles in bench/results/profiles/<dialect>/<server>/;
// their CPU figures then include the profiler); --tally=<checkout> the Tally build measured
// (default: this tree); --against=<checkout> a second Tally build measured beside it, on its own
// database seeded with its own migrations (e.g. an older commit in a git worktree, built with
// `npx tsc -b contract server` there); --node=<flag,flag> / --against-node=<flag,flag> Node
// flags for Tally / for the "against" build (e.g. --against=. --against-node=--max-semi-space-size=8
// weighs a V8 flag on the same build); --rounds=N; BENCH_PG_URL admin URL (default
// postgres://postgres@127.0.0.1:5432/postgres).
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase, dropDatabase, PASSWORD, seed } from './lib/seed.mjs';
import { waitUntilHealthy } from './lib/server.mjs';
import { signAccessToken } from './lib/tokens.mjs';
import { median, option } from './lib/measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const resultsDir = path.join(here, 'results');
const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
// Everything after the first `=`: a value may hold one (--against-node=--max-semi-space-size=8).

const QUICK = flag('quick') || process.env.BENCH_QUICK === '1';
/** Rounds per server; even rounds run the servers in one order, odd rounds in the reverse. */
const ROUNDS = Number(option('rounds') ?? (QUICK ? 4 : 10));
/** Requests per round are each scenario's `requests` times this. */
const AMOUNT_SCALE = QUICK ? 0.25 : 1;
const SCALING_DURATION = QUICK ? 2 : 5;
const CONNECTIONS = 50;
const DIALECTS = (option('dialects') ?? process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',');
const ONLY = option('only')?.split(',') ?? null;
const GROWTH = !flag('no-growth') && ONLY === null;
const SCALING = !flag('no-scaling') && ONLY === null;
const PROFILE = flag('profile');
/**
 * --together: read scenarios run all servers at once in each round (for TOGETHER_SECONDS, with
 * TOGETHER_CONNECTIONS each) instead of one after the other; writes always alternate (they would
 * wait on each other's locks).
 */
const TOGETHER = flag('together');
const TOGETHER_SECONDS = QUICK ? 1 : 2;
const TOGETHER_CONNECTIONS = 20;
const TALLY_DIR = path.resolve(option('tally') ?? root);
const AGAINST_DIR = option('against') ? path.resolve(option('against')) : null;
/** Node flags of Tally and of the "against" build (--node= / --against-node=, comma-separated). */
const nodeFlags = (name) => option(name)?.split(',').filter(Boolean) ?? [];
const TALLY_FLAGS = nodeFlags('node');
const AGAINST_FLAGS = nodeFlags('against-node');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** For the 2-process run only (WEB_CONCURRENCY > 1 needs shared counters). */
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const JWT_SECRET = 'bench-secret-that-is-at-least-32-bytes-long!!';
/**
 * BENCH_PORT (default 4101): the first of five ports; a run on another base also gets databases
 * and data directories of its own, so two engineers' runs on one machine do not collide.
 */
const PORT_BASE = Number(process.env.BENCH_PORT ?? 4101);
const PORTS = {
  tally: PORT_BASE,
  reference: PORT_BASE + 1,
  ceiling: PORT_BASE + 2,
  referenceB: PORT_BASE + 3,
  against: PORT_BASE + 4,
};
const INSTANCE = process.env.BENCH_PORT ? `-${PORT_BASE}` : '';
const STATS_ZONE = 'Europe/Berlin';
const GROWTH_TODOS = QUICK ? [10, 100, 1000] : [10, 100, 1000, 10_000];
const GROWTH_EVENTS = QUICK ? [1000, 10_000, 100_000] : [1000, 10_000, 100_000, 1_000_000];
/** Requests per growth measurement: about 2 s of one core each. */
const GROWTH_TODO_REQUESTS = { 10: 5000, 100: 3000, 1000: 400, 10_000: 40 };
const GROWTH_EVENT_REQUESTS = 3000;

const amountOf = (requests) => Math.max(20, Math.round(requests * AMOUNT_SCALE));

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

/** The target's database URL with an application_name, so its PostgreSQL backends can be found. */
function databaseUrlFor(target, applicationName) {
  if (!target.databaseUrl) return '';
  const url = new URL(target.databaseUrl);
  url.searchParams.set('application_name', applicationName);
  return url.toString();
}

function tallyEnv(target, port, applicationName, extra = {}) {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    JWT_SECRET,
    DATA_DIR: target.dataDir,
    DATABASE_URL: databaseUrlFor(target, applicationName),
    REDIS_URL: '',
    WEB_CONCURRENCY: '1',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_ATTEMPTS_PER_ACCOUNT: '1000000',
    ...extra,
  };
}

const profileArgs = (dialect, name) =>
  PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${path.join(resultsDir, 'profiles', dialect, name)}`]
    : [];

/** Starts the Tally build in `dir` (this tree unless --tally/--against say otherwise). */
async function startTally(
  target,
  { dir = TALLY_DIR, port = PORTS.tally, name = 'tally' } = {},
  extra = {},
) {
  const applicationName = `bench-${name}`;
  const child = startProcess(
    name,
    path.join(dir, 'server/dist/main.js'),
    tallyEnv(target, port, applicationName, extra),
    [...(name === 'against' ? AGAINST_FLAGS : TALLY_FLAGS), ...profileArgs(target.dialect, name)],
  );
  child.applicationName = applicationName;
  running.add(child);
  await waitUntilHealthy(`http://127.0.0.1:${port}`, { child, seconds: 20 });
  return child;
}

async function startReference(target, port, name) {
  const applicationName = `bench-${name}`;
  const child = startProcess(
    name,
    path.join(here, 'servers/reference.mjs'),
    {
      PORT: String(port),
      DIALECT: target.dialect,
      DATABASE_FILE: target.file ?? '',
      DATABASE_URL: databaseUrlFor(target, applicationName),
      JWT_SECRET,
    },
    profileArgs(target.dialect, name),
  );
  child.applicationName = applicationName;
  running.add(child);
  await waitUntilHealthy(`http://127.0.0.1:${port}`, { child, seconds: 20 });
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

// ---------------------------------------------------------------------------------------------
// CPU time, from /proc (Linux)

/** CPU time (ns) of all threads of a process, from /proc/<pid>/task/<tid>/schedstat. */
function threadsCpuNs(pid) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  let total = 0;
  for (const task of tasks) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended while we read
    }
  }
  return total;
}

/** The process and its descendants (a Tally with WEB_CONCURRENCY > 1 has workers). */
function processTree(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // gone
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

const cpuOfPids = (pids) => pids.reduce((sum, pid) => sum + threadsCpuNs(pid), 0);

/** Admin connection that finds a server's PostgreSQL backends by application_name. */
let pgAdmin = null;
async function backendsCpu(applicationName) {
  if (!pgAdmin) {
    pgAdmin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await pgAdmin.connect();
  }
  const { rows } = await pgAdmin.query(
    'select pid from pg_stat_activity where application_name = $1',
    [applicationName],
  );
  return new Map(rows.map((row) => [row.pid, threadsCpuNs(row.pid)]));
}

/** CPU the backends spent between two samples; backends that appeared count from their start. */
function backendsDelta(before, after) {
  let total = 0;
  for (const [pid, ns] of after) total += ns - (before.get(pid) ?? 0);
  return total;
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

/**
 * Sends `amount` requests (or runs for `duration` seconds) with autocannon and measures the
 * server's CPU time per request: all threads of its process tree, and on PostgreSQL its own
 * backends, sampled before and after.
 */
async function load({
  port,
  request,
  amount,
  duration,
  child,
  applicationName,
  connections = CONNECTIONS,
}) {
  const pids = child ? processTree(child.pid) : [];
  let peakRss = 0;
  const sampler =
    pids.length > 0
      ? setInterval(() => {
          peakRss = Math.max(peakRss, rssMb(pids[0]));
        }, 250)
      : null;
  const dbBefore = applicationName ? await backendsCpu(applicationName) : null;
  const cpuBefore = cpuOfPids(pids);
  const started = performance.now();
  let lastAnswer = started;
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections: amount ? Math.min(connections, amount) : connections,
        ...(amount ? { amount } : { duration }),
        // autocannon notices that `amount` is reached at its next sample only.
        sampleInt: 100,
        timeout: 10,
        requests: [request],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', () => {
      lastAnswer = performance.now();
    });
  });
  const seconds = (lastAnswer - started) / 1000;
  // Let the server finish what followed the last answer (closing 50 sockets, a late GC) and
  // count it: it is part of the work of these requests.
  await sleep(100);
  const cpuNs = cpuOfPids(pids) - cpuBefore;
  const dbNs = dbBefore ? backendsDelta(dbBefore, await backendsCpu(applicationName)) : null;
  if (sampler) clearInterval(sampler);
  const errors = result.errors + result.timeouts + result.non2xx;
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {})
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, stats]) => [code, stats.count]),
  );
  const requests = result.requests.total;
  const perRequest = (ns) => (requests > 0 ? ns / 1000 / requests : null);
  return {
    cpuUs: pids.length > 0 ? perRequest(cpuNs) : null,
    dbUs: dbNs === null ? null : perRequest(dbNs),
    rps: Math.round(requests / seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
    ...(errors > 0
      ? { errorDetail: { ...statuses, socket: result.errors, timeouts: result.timeouts } }
      : {}),
    requests,
    peakRssMb: pids.length > 0 ? Math.round(peakRss) : null,
  };
}

async function measure(target, seconds) {
  await load({ ...target, duration: Math.max(1, Math.round(seconds / 2)) });
  return load({ ...target, duration: seconds });
}

/**
 * Measures the targets in ROUNDS rounds of `amount` requests each, after one warm-up each.
 * Even rounds take the targets in their order, odd rounds in the reverse (A B C / C B A), so a
 * slow stretch of the machine falls on both sides of each pair. Keeps every round and the
 * median of each figure.
 */
async function compare(targets, amount, together = false) {
  const warmup = Math.min(amount, Math.max(20, Math.round(amount / 2)));
  for (const target of Object.values(targets))
    await load({ ...target, amount: warmup, child: null });
  const names = Object.keys(targets);
  const rounds = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    if (together) {
      // All at once for the same wall time: each sees the same load from the rest of the machine.
      const results = await Promise.all(
        names.map((name) =>
          load({ ...targets[name], duration: TOGETHER_SECONDS, connections: TOGETHER_CONNECTIONS }),
        ),
      );
      names.forEach((name, i) => rounds[name].push(results[i]));
      continue;
    }
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) rounds[name].push(await load({ ...targets[name], amount }));
  }
  return Object.fromEntries(
    Object.entries(rounds).map(([name, results]) => [
      name,
      {
        cpuUs: median(results.map((r) => r.cpuUs)),
        dbUs: median(results.map((r) => r.dbUs)),
        rps: Math.round(median(results.map((r) => r.rps))),
        p50: Math.round(median(results.map((r) => r.p50))),
        p99: Math.round(median(results.map((r) => r.p99))),
        errors: results.reduce((sum, r) => sum + r.errors, 0),
        errorDetail: results.map((r) => r.errorDetail).filter(Boolean),
        requests: results.reduce((sum, r) => sum + r.requests, 0),
        peakRssMb:
          results[0].peakRssMb === null ? null : Math.max(...results.map((r) => r.peakRssMb)),
        rounds: results.map(({ cpuUs, dbUs, rps, p99 }) => ({ cpuUs, dbUs, rps, p99 })),
      },
    ]),
  );
}

const quantile = (values, q) => {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.ceil(at)] - sorted[low]) * (at - low);
};

/**
 * a / b, per round (the two were measured moments apart, under the same load from the rest of
 * the machine), as the median of the rounds' ratios with their quartiles.
 */
function ratioOf(a, b) {
  if (!a?.cpuUs || !b?.cpuUs) return null;
  const perRound = a.rounds.map((r, i) => r.cpuUs / b.rounds[i].cpuUs);
  return {
    ratio: quantile(perRound, 0.5),
    low: quantile(perRound, 0.25),
    high: quantile(perRound, 0.75),
    rounds: perRound.map((r) => Number(r.toFixed(3))),
  };
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
    // The task model's fields too (tags, priorities, subtasks): the list answers them (seed.mjs).
    { username: 'bench-list', groups: 5, todos: 200, events: 0, planned: true, taskModel: true },
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
      requests: 600,
      name: 'list todos (200)',
      method: 'GET',
      path: '/api/todos',
      headers: bearer('bench-list'),
    },
    {
      key: 'page',
      requests: 2_000,
      name: 'first page (50 of 200)',
      method: 'GET',
      path: '/api/todos?limit=50',
      headers: bearer('bench-list'),
    },
    {
      key: 'counts',
      requests: 2_000,
      name: 'tab counts (200)',
      method: 'GET',
      path: '/api/todos/counts',
      headers: bearer('bench-list'),
    },
    {
      key: 'create',
      requests: 500,
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
      requests: 500,
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
      key: 'today',
      requests: 2_000,
      name: 'today view (of 200)',
      method: 'GET',
      path: '/api/todos?view=today',
      headers: stats('bench-list'),
    },
    {
      key: 'groups',
      requests: 2_000,
      name: 'list groups (5)',
      method: 'GET',
      path: '/api/todo-groups',
      headers: bearer('bench-list'),
    },
    {
      key: 'total',
      requests: 2_000,
      name: 'statistics total (100k events)',
      method: 'GET',
      path: '/api/statistics/total',
      headers: stats('bench-stats'),
      statistics: true,
    },
    {
      key: 'recent',
      requests: 1_000,
      name: 'statistics recent?days=30 (100k)',
      method: 'GET',
      path: '/api/statistics/recent?days=30',
      headers: stats('bench-stats'),
      statistics: true,
    },
    {
      key: 'since',
      requests: 2_000,
      name: 'statistics since 30 days (100k)',
      method: 'GET',
      path: `/api/statistics/since?since=${daysAgo(30, STATS_ZONE)}`,
      headers: stats('bench-stats'),
      statistics: true,
    },
    {
      key: 'many',
      requests: 1_500,
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
      requests: 40,
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

/** Sends the scenario once to a server and gives its status and body (for the ceiling). */
async function sample(scenario, port = PORTS.tally) {
  const response = await fetch(`http://127.0.0.1:${port}${scenario.path}`, {
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

/**
 * A database seeded for the Tally build in `dir`, with access tokens signed by that build
 * (tokens carry the session the seeder opened for each user, when the build has sessions).
 */
async function prepareBuild(dialect, dir, suffix) {
  const serverDist = path.join(dir, 'server/dist');
  const target = await createDatabase({
    dialect,
    dataDir: path.join(os.tmpdir(), `tally-bench-${dialect}${suffix}`),
    adminUrl: PG_ADMIN_URL,
    dbName: `tally_bench${suffix.replace(/-/g, '_')}`,
    serverDist,
  });
  const users = await seed(target, seedPlans());
  const signed = new Map();
  // Access tokens live 15 minutes and a run on a busy machine lasts longer: signed afresh before
  // each scenario (a run of 19:47 UTC got 401s from its sixth scenario on).
  const sign = async () => {
    for (const [name, user] of users) {
      const claims = { id: user.id, username: name, sessionId: user.sessionId };
      signed.set(name, await signAccessToken(JWT_SECRET, claims));
    }
  };
  await sign();
  return { target, users, tokenOf: (name) => signed.get(name), sign };
}

async function dropBuild({ target }, suffix) {
  await dropDatabase({
    dialect: target.dialect,
    dataDir: target.dataDir,
    adminUrl: PG_ADMIN_URL,
    dbName: `tally_bench${suffix.replace(/-/g, '_')}`,
  });
}

async function runDialect(dialect, report) {
  const seedStarted = Date.now();
  const main = await prepareBuild(dialect, TALLY_DIR, INSTANCE);
  const other = AGAINST_DIR
    ? await prepareBuild(dialect, AGAINST_DIR, `-against${INSTANCE}`)
    : null;
  const { target, users, tokenOf } = main;
  console.info(
    `\n## ${dialect}: seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s (load ${loadAverage()})`,
  );
  const onPostgres = dialect === 'postgres';
  const serverOf = (child, port) => ({
    port,
    child,
    applicationName: onPostgres ? child.applicationName : null,
  });

  let tally = await startTally(target);
  const reference = await startReference(target, PORTS.reference, 'reference');
  const referenceB = await startReference(target, PORTS.referenceB, 'reference-b');
  const against = other
    ? await startTally(other.target, { dir: AGAINST_DIR, port: PORTS.against, name: 'against' })
    : null;
  const ceiling = await startCeiling();
  try {
    const keys = buildScenarios(users, tokenOf)
      .map((s) => s.key)
      .filter((key) => !ONLY || ONLY.includes(key));
    for (const key of keys) {
      await main.sign();
      if (other) await other.sign();
      const scenario = buildScenarios(users, tokenOf).find((s) => s.key === key);
      const otherScenarios = other
        ? new Map(buildScenarios(other.users, other.tokenOf).map((s) => [s.key, s]))
        : null;
      const body = await sample(scenario);
      if (body.status >= 300)
        console.error(`${scenario.key}: Tally answered ${body.status} ${body.text}`);
      if (scenario.method === 'GET') {
        // The reference must do the same work: the same answer.
        const theirs = await sample(scenario, PORTS.reference);
        if (!isDeepStrictEqual(JSON.parse(theirs.text), JSON.parse(body.text)))
          console.error(`${scenario.key}: the reference's answer differs from Tally's`);
      }
      await fetch(`http://127.0.0.1:${PORTS.ceiling}/__body/${scenario.key}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const targets = {
        ceiling: {
          port: PORTS.ceiling,
          child: ceiling,
          request: requestOf(scenario, `/c/${scenario.key}`),
        },
        tally: { ...serverOf(tally, PORTS.tally), request: requestOf(scenario) },
        reference: { ...serverOf(reference, PORTS.reference), request: requestOf(scenario) },
        referenceB: { ...serverOf(referenceB, PORTS.referenceB), request: requestOf(scenario) },
      };
      if (against) {
        const theirs = otherScenarios.get(scenario.key);
        const answer = await sample(theirs, PORTS.against);
        if (answer.status >= 300)
          console.error(`${scenario.key}: --against answered ${answer.status} ${answer.text}`);
        targets.against = { ...serverOf(against, PORTS.against), request: requestOf(theirs) };
      }
      const row = {
        dialect,
        key: scenario.key,
        scenario: scenario.name,
        bytes: body.text.length,
        apart: Boolean(scenario.apart),
        statistics: Boolean(scenario.statistics),
        amount: amountOf(scenario.requests),
      };
      row.together = TOGETHER && scenario.method === 'GET';
      Object.assign(row, await compare(targets, row.amount, row.together));
      // The budget's ratio: the reference's CPU per request over Tally's (1 = as lean).
      row.referenceOverTally = ratioOf(row.reference, row.tally);
      // A/A: the second reference over the first, the same code; how far it is from 1 is noise.
      row.aa = ratioOf(row.referenceB, row.reference);
      if (row.against) row.againstOverTally = ratioOf(row.against, row.tally);
      row.load = loadAverage();
      report.scenarios.push(row);
      console.info(formatRow(row));
      // So that a run that stops half-way keeps what it measured.
      mkdirSync(resultsDir, { recursive: true });
      writeFileSync(
        path.join(resultsDir, `partial${INSTANCE}.json`),
        JSON.stringify(report, null, 2),
      );
    }

    if (GROWTH) {
      await main.sign();
      const growth = async (request, amount) => {
        await settle(PORTS.tally);
        await load({
          ...serverOf(tally, PORTS.tally),
          child: null,
          request,
          amount: Math.max(1, Math.round(amount / 5)),
        });
        return load({ ...serverOf(tally, PORTS.tally), request, amount });
      };
      for (const n of GROWTH_TODOS) {
        const request = {
          method: 'GET',
          path: '/api/todos',
          headers: { authorization: `Bearer ${tokenOf(`todos-${n}`)}` },
        };
        const bytes = (await sample(request)).text.length;
        const result = await growth(request, amountOf(GROWTH_TODO_REQUESTS[n]));
        report.growth.push({ dialect, kind: 'list todos', size: n, bytes, ...result });
        console.info(
          `growth ${dialect} list todos n=${n}: ${fixed(result.cpuUs)} µs/req, ${result.rps} req/s p99 ${result.p99} ms, ${bytes} B`,
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
          const result = await growth(request, amountOf(GROWTH_EVENT_REQUESTS));
          report.growth.push({ dialect, kind, size: n, ...result });
          console.info(
            `growth ${dialect} ${kind} n=${n}: ${fixed(result.cpuUs)} µs/req, ${result.rps} req/s p99 ${result.p99} ms`,
          );
        }
      }
    }

    if (SCALING && onPostgres) {
      await main.sign();
      const request = {
        method: 'GET',
        path: '/api/todos',
        headers: { authorization: `Bearer ${tokenOf('bench-list')}` },
      };
      const one = await measure({ ...serverOf(tally, PORTS.tally), request }, SCALING_DURATION);
      await stopProcess(tally);
      running.delete(tally);
      let two;
      try {
        // More than one process needs Redis for its shared rate-limit counters.
        tally = await startTally(
          target,
          { name: 'tally-x2' },
          { WEB_CONCURRENCY: '2', REDIS_URL: REDIS_URL },
        );
        two = await measure({ ...serverOf(tally, PORTS.tally), request }, SCALING_DURATION);
      } catch (error) {
        console.error(`scaling not measured: ${error.message}`);
        report.scaling = { scenario: 'list todos (200), PostgreSQL', error: error.message };
        return;
      }
      report.scaling = {
        scenario: 'list todos (200), PostgreSQL',
        one,
        two,
        factor: Number((two.rps / one.rps).toFixed(2)),
      };
      console.info(
        `scaling: 1 process ${one.rps} req/s (${fixed(one.cpuUs)} µs/req), 2 processes ${two.rps} req/s (${fixed(two.cpuUs)} µs/req) (x${report.scaling.factor})`,
      );
    }
  } finally {
    await stopAll();
    await dropBuild(main, INSTANCE);
    if (other) await dropBuild(other, `-against${INSTANCE}`);
  }
}

const fixed = (value, digits = 0) =>
  value === null || value === undefined ? '-' : value.toFixed(digits);
const ratioText = (r) => (r ? `${r.ratio.toFixed(2)}` : '-');
const rangeText = (r) =>
  r ? `${r.ratio.toFixed(2)} (${r.low.toFixed(2)}-${r.high.toFixed(2)})` : '-';

function formatRow(row) {
  const t = row.tally;
  const db = t.dbUs === null ? '' : ` (+db ${fixed(t.dbUs)} / ref ${fixed(row.reference.dbUs)})`;
  const against = row.against
    ? `  against ${fixed(row.against.cpuUs)} µs (${ratioText(row.againstOverTally)})`
    : '';
  return `${row.dialect.padEnd(8)} ${row.scenario.padEnd(34)} Tally ${fixed(t.cpuUs).padStart(5)} µs/req  ref ${fixed(row.reference.cpuUs).padStart(5)} µs  ref/Tally ${ratioText(row.referenceOverTally)}  A/A ${rangeText(row.aa)}${db}${against}  | ${t.rps} req/s p50 ${t.p50} p99 ${t.p99} ms err ${t.errors}`;
}

const BUDGET_RATIO = 0.85;

function budgets(report) {
  const checks = [];
  for (const row of report.scenarios) {
    const where = `${row.dialect} ${row.scenario}`;
    if (!row.apart && row.referenceOverTally) {
      checks.push({
        budget: `${where}: reference/Tally CPU per request >= ${BUDGET_RATIO}`,
        ok: row.referenceOverTally.ratio >= BUDGET_RATIO,
        value: row.referenceOverTally.ratio.toFixed(2),
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
  const againstNote = report.against ? `; "against" is the Tally build in ${report.against}` : '';
  lines.push(
    `Tally benchmark, ${report.date}: ${report.machine.cpus} × ${report.machine.cpuModel}, ${report.machine.memoryGb} GB, Node ${report.machine.node}, load before ${report.loadBefore}. CPU time per request of each server's process (all threads; on PostgreSQL the server's own backends apart as "DB"), medians of ${report.rounds} alternating rounds (A B / B A) of a fixed number of requests, ${report.connections} connections${report.quick ? ' (quick mode)' : ''}${againstNote}. Ratios (ref/Tally, the budget's, >= ${BUDGET_RATIO}; A/A, the second reference instance over the first, the method's noise; against/Tally) are medians of the per-round ratios, with their quartiles for A/A.`,
  );
  lines.push('');
  const againstHead = report.against ? ' against µs | against/Tally |' : '';
  const againstRule = report.against ? '--:|--:|' : '';
  lines.push(
    `| DB | Scenario | requests/round | Tally µs/req | reference µs/req | ref/Tally | A/A (quartiles) | Tally DB µs/req | ref DB µs/req | ceiling µs/req |${againstHead} Tally req/s | p50 ms | p99 ms | errors | reference req/s | peak RSS MB |`,
  );
  lines.push(`|---|---|--:|--:|--:|--:|--:|--:|--:|--:|${againstRule}--:|--:|--:|--:|--:|--:|`);
  for (const r of report.scenarios) {
    const againstCells = report.against
      ? ` ${fixed(r.against?.cpuUs)} | ${ratioText(r.againstOverTally)} |`
      : '';
    lines.push(
      `| ${r.dialect} | ${r.scenario} | ${r.amount} | ${fixed(r.tally.cpuUs)} | ${fixed(r.reference.cpuUs)} | ${ratioText(r.referenceOverTally)} | ${rangeText(r.aa)} | ${fixed(r.tally.dbUs)} | ${fixed(r.reference.dbUs)} | ${fixed(r.ceiling.cpuUs)} |${againstCells} ${r.tally.rps} | ${r.tally.p50} | ${r.tally.p99} | ${r.tally.errors} | ${r.reference.rps} | ${r.tally.peakRssMb} |`,
    );
  }
  if (report.growth.length > 0) {
    lines.push(
      '',
      '| DB | Growth | size | requests | CPU µs/req | DB µs/req | req/s | p50 ms | p99 ms | errors | body bytes |',
      '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    );
    for (const g of report.growth) {
      lines.push(
        `| ${g.dialect} | ${g.kind} | ${g.size} | ${g.requests} | ${fixed(g.cpuUs)} | ${fixed(g.dbUs)} | ${g.rps} | ${g.p50} | ${g.p99} | ${g.errors} | ${g.bytes ?? ''} |`,
      );
    }
  }
  if (report.scaling?.error) {
    lines.push('', `Scaling (${report.scaling.scenario}) not measured: ${report.scaling.error}`);
  } else if (report.scaling) {
    const s = report.scaling;
    lines.push(
      '',
      `Scaling (${s.scenario}): 1 process ${s.one.rps} req/s (p99 ${s.one.p99} ms, ${fixed(s.one.cpuUs)} µs/req), 2 processes ${s.two.rps} req/s (p99 ${s.two.p99} ms, ${fixed(s.two.cpuUs)} µs/req): x${s.factor}.`,
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
  method: 'cpu-per-request',
  connections: CONNECTIONS,
  rounds: ROUNDS,
  tally: TALLY_DIR,
  against: AGAINST_DIR,
  profile: PROFILE,
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
  `Tally benchmark on ${report.machine.cpus} cores (${report.machine.cpuModel}); load ${report.loadBefore}${QUICK ? '; quick mode' : ''}${PROFILE ? '; profiling (CPU figures include the profiler)' : ''}`,
);
const started = Date.now();
try {
  for (const dialect of DIALECTS) await runDialect(dialect, report);
} finally {
  await stopAll();
  if (pgAdmin) await pgAdmin.end();
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
