// `node bench/list-budget.mjs`: the list budget measured from outside (docs/performance.md, "The
// list against a raw reference"): GET /api/todos of a 200-todo user (tags, priorities, subtasks,
// due dates), Tally's CPU per request against the raw reference's (bench/servers/raw-list.mjs:
// node:http and the raw driver answering the same fields from the same database). Budget:
// raw / Tally ≥ 0.85.
//
// Tally runs as `npm start` runs it: server/bin/serve.mjs (the bundle; `npm run build` first)
// with the Node flags its launcher gives (server/bin/node-flags.mjs); a build whose serve.mjs
// sets its own flags gets none. Each server is a process of its own on loopback; its CPU is the
// time of all its threads (/proc/<pid>/task/*/schedstat) over --requests=N requests (default
// 2,000, 10 connections), in --rounds=N rounds (default 8) whose order alternates (forward,
// then backward); medians, and ratios as medians of the per-round ratios. A second raw instance
// measured against the first (A/A) is the method's noise.
//   --dialects=sqlite,postgres   --against=<checkout> another Tally build beside this one, on a
//   copy of the same database (its own data folder or PostgreSQL database), in the same rounds
//   --port=N first of five ports (default 4151); BENCH_PG_URL as bench/run.mjs.
// Before measuring, each Tally's answer must equal the raw reference's.
import { spawn } from 'node:child_process';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase, dropDatabase, seed } from './lib/seed.mjs';
import { waitUntilHealthy } from './lib/server.mjs';
import { signAccessToken } from './lib/tokens.mjs';
import { median, option } from './lib/measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const DIALECTS = (option('dialects') ?? 'sqlite,postgres').split(',');
const ROUNDS = Number(option('rounds') ?? 8);
const REQUESTS = Number(option('requests') ?? 2_000);
const AGAINST = option('against') ? path.resolve(option('against')) : null;
const PORT = Number(option('port') ?? 4151);
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const JWT_SECRET = 'bench-secret-that-is-at-least-32-bytes-long!!';
const BUDGET = 0.85;

/** CPU time (ns) of all threads of a process. */
function threadsCpuNs(pid) {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended while it was read
    }
  }
  return total;
}

function databaseUrl(base, applicationName) {
  if (!base) return '';
  const url = new URL(base);
  url.searchParams.set('application_name', applicationName);
  return url.toString();
}

const running = [];
function start(name, nodeArgs, env, port) {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  running.push(child);
  return { name, child, port, origin: `http://127.0.0.1:${port}` };
}
async function stopAll() {
  await Promise.all(
    running.splice(0).map((child) =>
      child.exitCode !== null
        ? null
        : new Promise((resolve) => {
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
    ),
  );
}

/** Tally as its `npm start` starts it, on `target`. */
async function startTally(name, dir, target, port) {
  const launcher = await import(path.join(dir, 'server/bin/node-flags.mjs'));
  const env = {
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    JWT_SECRET,
    DATA_DIR: target.dataDir,
    DATABASE_URL: databaseUrl(target.databaseUrl, `bench-${name}`),
    REDIS_URL: '',
    WEB_CONCURRENCY: '1',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_ATTEMPTS_PER_ACCOUNT: '1000000',
  };
  const flags = launcher.serverNodeFlags?.(env) ?? [];
  const server = start(name, [...flags, path.join(dir, 'server/bin/serve.mjs')], env, port);
  server.flags = flags;
  return server;
}

function startRaw(name, target, port) {
  return start(
    name,
    [path.join(here, 'servers/raw-list.mjs')],
    {
      DIALECT: target.dialect,
      DATABASE_FILE: target.file ?? '',
      DATABASE_URL: databaseUrl(target.databaseUrl, `bench-${name}`),
      JWT_SECRET,
    },
    port,
  );
}

/** A copy of `target` with the same rows: the SQLite file, or a PostgreSQL database from it. */
async function copyOf(target, suffix) {
  const dataDir = `${target.dataDir}-${suffix}`;
  if (target.dialect === 'sqlite') {
    cpSync(target.dataDir, dataDir, { recursive: true });
    return { ...target, dataDir, file: path.join(dataDir, path.basename(target.file)) };
  }
  const name = `${new URL(target.databaseUrl).pathname.slice(1)}_${suffix}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(
    `create database ${name} template ${new URL(target.databaseUrl).pathname.slice(1)}`,
  );
  await admin.end();
  const url = new URL(target.databaseUrl);
  url.pathname = `/${name}`;
  return { ...target, dataDir, databaseUrl: url.toString(), dbName: name };
}

async function measure(dialect) {
  const where = {
    dialect,
    dataDir: path.join(os.tmpdir(), `tally-list-budget-${PORT}-${dialect}`),
    adminUrl: ADMIN_URL,
    dbName: `tally_list_budget_${PORT}`,
  };
  const target = await createDatabase(where);
  const users = await seed(target, [
    { username: 'bench-list', groups: 5, todos: 200, events: 0, planned: true, taskModel: true },
  ]);
  const user = users.get('bench-list');
  const copy = AGAINST ? await copyOf(target, 'against') : null;

  const servers = [
    await startTally('tally', root, target, PORT),
    ...(AGAINST ? [await startTally('against', AGAINST, copy, PORT + 1)] : []),
    startRaw('raw', target, PORT + 2),
    startRaw('raw-aa', target, PORT + 3),
  ];
  try {
    for (const server of servers) {
      await waitUntilHealthy(server.origin, { child: server.child, seconds: 30 });
    }
    const token = () =>
      signAccessToken(JWT_SECRET, {
        id: user.id,
        username: 'bench-list',
        sessionId: user.sessionId,
      });
    const get = async (server) => {
      const response = await fetch(`${server.origin}/api/todos`, {
        headers: { authorization: `Bearer ${await token()}` },
      });
      return { status: response.status, body: await response.json() };
    };
    const expected = await get(servers.find((s) => s.name === 'raw'));
    if (expected.status !== 200 || expected.body.length !== 200) {
      throw new Error(`the raw reference answered ${expected.status}`);
    }
    for (const server of servers) {
      const answer = await get(server);
      if (answer.status !== 200 || !isDeepStrictEqual(answer.body, expected.body)) {
        throw new Error(`${server.name} does not answer what the raw reference answers`);
      }
    }

    const load = async (server, amount) => {
      const result = await autocannon({
        url: `${server.origin}/api/todos`,
        connections: 10,
        amount,
        headers: { authorization: `Bearer ${await token()}` },
      });
      if (result.non2xx > 0 || result.errors > 0) {
        throw new Error(`${server.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      }
      return result;
    };
    for (const server of servers) await load(server, Math.min(REQUESTS, 1_000));

    const perRound = new Map(servers.map((s) => [s.name, []]));
    const loads = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) {
        const before = threadsCpuNs(server.child.pid);
        await load(server, REQUESTS);
        perRound.get(server.name).push((threadsCpuNs(server.child.pid) - before) / 1e3 / REQUESTS);
      }
      loads.push(os.loadavg()[0]);
    }
    const raw = perRound.get('raw');
    const ratio = (name) => median(raw.map((r, i) => r / perRound.get(name)[i]));
    const rows = servers.map((server) => ({
      dialect,
      server: server.flags
        ? `${server.name} (${server.flags.join(' ') || 'its own flags'})`
        : server.name,
      cpu: median(perRound.get(server.name)),
      rawOver: server.name === 'raw' ? 1 : ratio(server.name),
    }));
    if (AGAINST) {
      const tally = perRound.get('tally');
      const against = perRound.get('against');
      rows.push({
        dialect,
        server: 'against / tally (above 1: this tree is cheaper)',
        cpu: NaN,
        rawOver: median(against.map((a, i) => a / tally[i])),
      });
    }
    return { rows, load: `${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}` };
  } finally {
    await stopAll();
    await dropDatabase(where);
    if (copy) await dropDatabase({ ...where, dataDir: copy.dataDir, dbName: copy.dbName });
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => void stopAll().finally(() => process.exit(130)));
}
console.info(
  `GET /api/todos (200 todos): ${ROUNDS} rounds of ${REQUESTS} requests, CPU µs per request (medians); budget raw/Tally ≥ ${BUDGET}`,
);
console.info('| DB | server | CPU µs/req | raw / server | load (1 min) |');
console.info('| -- | ------ | ---------: | -----------: | -----------: |');
for (const dialect of DIALECTS) {
  const { rows, load } = await measure(dialect);
  for (const row of rows) {
    const mark = row.server.startsWith('tally') && row.rawOver < BUDGET ? ' ✗' : '';
    console.info(
      `| ${row.dialect} | ${row.server} | ${Number.isNaN(row.cpu) ? '' : Math.round(row.cpu)} | ${row.rawOver.toFixed(2)}${mark} | ${load} |`,
    );
  }
}
