// `npm run test:faults`: the fault suites against the real compiled server (server/dist/main.js),
// each on loopback with its own data. Not part of `npm test`.
//
//   durability  SIGKILL mid-burst FAULT_KILLS times (default 20) on each database; after every
//               restart each acknowledged write is there, no refused one is, none half-applied
//   backup      `db:backup` while writing, restore, the acknowledged data is back
//   shutdown    SIGTERM under load: in-flight requests finish, new ones are refused, exit < 10 s
//   outage      PostgreSQL behind a TCP proxy we cut: 503s, no hang, no crash, recovery
//   soak        SOAK_SECONDS (default 600) of steady mixed load: memory and handles flat, no error
//
// Env: FAULT_KILLS, SOAK_SECONDS, SOAK_RATE (requests/s, default 40), FAULT_DATABASES
// (sqlite,postgres), FAULT_PG_URL (admin URL, default postgres://postgres@127.0.0.1:5432/postgres).
// Arguments pick stages: `node server/faults/run.mjs durability soak`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const main = path.join(root, 'server/dist/main.js');
const probe = pathToFileURL(path.join(root, 'server/faults/memory-probe.mjs')).href;
const int = (name, fallback) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const KILLS = int('FAULT_KILLS', 20);
const SOAK_SECONDS = int('SOAK_SECONDS', 600);
const SOAK_RATE = int('SOAK_RATE', 40);
const DATABASES = (process.env.FAULT_DATABASES ?? 'sqlite,postgres').split(',').filter(Boolean);
const PG_ADMIN = process.env.FAULT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const STAGES = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['durability', 'backup', 'shutdown', 'outage', 'soak'];
const JWT_SECRET = 'fault-harness-secret-that-is-long-enough-32';

const results = {};
const failures = [];
const check = (ok, message) => {
  if (!ok) {
    failures.push(message);
    console.error(`  FAIL ${message}`);
  }
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let seed = 20260310;
const random = () => {
  // mulberry32: the same kill points on every run
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (items) => items[Math.floor(random() * items.length)];

// ---- HTTP, servers, databases --------------------------------------------------------------

/** One request on a fresh connection; resolves {status, body} or {error: code}. */
function request(port, method, url, { body, token, timeout = 15_000 } = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent: false,
        timeout,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          let json = null;
          try {
            json = text ? JSON.parse(text) : null;
          } catch {
            json = { unparsable: text.slice(0, 200) };
          }
          resolve({ status: res.statusCode, body: json });
        });
        res.on('error', (error) => resolve({ error: error.code ?? error.message }));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (error) => resolve({ error: error.code ?? error.message }));
    req.end(payload);
  });
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startServer(env, { memoryProbe } = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [...(memoryProbe ? ['--import', probe] : []), main], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET,
      LOG_LEVEL: 'error',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      LOGIN_ATTEMPTS_PER_ACCOUNT: '1000000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const health = await request(port, 'GET', '/api/health', { timeout: 2000 });
    if (health.status === 200) return { port, child, exited, stderr: () => stderr };
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start: ${stderr.slice(-2000)}`);
}

async function stopServer(server) {
  server.child.kill('SIGTERM');
  return server.exited;
}

async function admin(sql) {
  const client = new pg.Client({ connectionString: PG_ADMIN });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database of the given kind; returns its env and a cleanup. */
async function freshDatabase(kind, name) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `tally-faults-${name}-`));
  if (kind === 'sqlite') {
    return {
      env: { DATA_DIR: dataDir },
      dataDir,
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const dbName = `tally_faults_${name}`;
  await admin(`drop database if exists ${dbName} with (force)`);
  await admin(`create database ${dbName}`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${dbName}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    dataDir,
    url: url.toString(),
    dbName,
    cleanup: async () => {
      await admin(`drop database if exists ${dbName} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function signUp(port) {
  const username = `fault_${Date.now().toString(36)}_${Math.floor(random() * 1e6)}`;
  const response = await request(port, 'POST', '/api/auth/register', {
    body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
  });
  if (response.status !== 201) throw new Error(`register failed: ${JSON.stringify(response)}`);
  return { username, password: 'correct horse battery', token: response.body.accessToken };
}

async function login(port, user) {
  const response = await request(port, 'POST', '/api/auth/login', {
    body: { username: user.username, password: user.password },
  });
  if (response.status !== 200) throw new Error(`login failed: ${JSON.stringify(response)}`);
  user.token = response.body.accessToken;
}

// ---- durability ---------------------------------------------------------------------------

async function durability(kind) {
  console.info(`\n== durability on ${kind}: ${KILLS} SIGKILLs mid-burst`);
  const database = await freshDatabase(kind, 'durability');
  const ledger = new Map(); // acknowledged todos: id -> title
  const deleted = new Set(); // acknowledged deletes
  const refused = new Set(); // titles of refused creates
  let acknowledged = 0;
  let unanswered = 0;
  let checked = 0;
  let server = await startServer(database.env);
  const user = await signUp(server.port);
  try {
    for (let cycle = 1; cycle <= KILLS; cycle++) {
      await login(server.port, user);
      const pendingCreates = new Set();
      const pendingUpdates = new Map();
      const pendingDeletes = new Set();
      let n = 0;
      let killed = false;
      const worker = async () => {
        while (!killed) {
          const op = random();
          const ids = [...ledger.keys()];
          const i = n++;
          if (op < 0.45 || ids.length < 5) {
            const title = `c${cycle}-${i}`;
            pendingCreates.add(title);
            const r = await request(server.port, 'POST', '/api/todos', {
              body: { title },
              token: user.token,
            });
            if (r.status === 201) {
              pendingCreates.delete(title);
              ledger.set(r.body.id, title);
              acknowledged++;
            } else if (r.status) {
              failures.push(`create answered ${r.status}`);
            }
          } else if (op < 0.7) {
            const id = pick(ids);
            const title = `u${cycle}-${i}`;
            pendingUpdates.set(id, [...(pendingUpdates.get(id) ?? []), title]);
            const r = await request(server.port, 'PUT', `/api/todos/${id}`, {
              body: { title, description: null, groupId: null, completed: random() < 0.5 },
              token: user.token,
            });
            if (r.status === 200 && ledger.has(id)) {
              ledger.set(id, title);
              acknowledged++;
            }
          } else if (op < 0.85) {
            const id = pick(ids);
            pendingDeletes.add(id);
            const r = await request(server.port, 'DELETE', `/api/todos/${id}`, {
              token: user.token,
            });
            if (r.status === 204) {
              pendingDeletes.delete(id);
              ledger.delete(id);
              deleted.add(id);
              acknowledged++;
            }
          } else {
            // Refused: a group that does not exist. It must never appear.
            const title = `r${cycle}-${i}`;
            const r = await request(server.port, 'POST', '/api/todos', {
              body: { title, groupId: 2_000_000_000 },
              token: user.token,
            });
            if (r.status === 400) refused.add(title);
            else if (r.status) failures.push(`refused create answered ${r.status}`);
          }
        }
      };
      const workers = Array.from({ length: 6 }, worker);
      await sleep(150 + random() * 350);
      killed = true;
      server.child.kill('SIGKILL');
      await server.exited;
      await Promise.all(workers);

      server = await startServer(database.env); // the database opens
      await login(server.port, user);
      const list = await request(server.port, 'GET', '/api/todos', { token: user.token });
      const totals = await request(server.port, 'GET', '/api/statistics/total', {
        token: user.token,
      });
      const present = new Map(list.body.map((t) => [t.id, t.title]));
      for (const [id, title] of ledger) {
        checked++;
        const now = present.get(id);
        const allowed = [title, ...(pendingUpdates.get(id) ?? [])];
        if (now === undefined && pendingDeletes.has(id)) {
          ledger.delete(id);
          deleted.add(id);
          continue;
        }
        check(now !== undefined, `${kind} cycle ${cycle}: acknowledged todo ${id} lost`);
        check(
          now === undefined || allowed.includes(now),
          `${kind} cycle ${cycle}: todo ${id} is "${now}", expected one of ${allowed}`,
        );
        if (now !== undefined) ledger.set(id, now);
      }
      for (const id of deleted) {
        checked++;
        check(!present.has(id), `${kind} cycle ${cycle}: deleted todo ${id} is back`);
      }
      for (const [id, title] of present) {
        check(!refused.has(title), `${kind} cycle ${cycle}: refused write "${title}" is present`);
        if (!ledger.has(id)) {
          // Committed but unanswered when the process died: allowed, and from now on known.
          check(
            pendingCreates.has(title),
            `${kind} cycle ${cycle}: unexpected todo ${id} "${title}"`,
          );
          ledger.set(id, title);
          unanswered++;
        }
      }
      checked += refused.size;
      // Each create and delete writes its statistics event in the same transaction.
      check(
        totals.body.todosCreated === present.size + totals.body.todosDeleted,
        `${kind} cycle ${cycle}: half-applied transaction (created ${totals.body.todosCreated}, present ${present.size}, deleted ${totals.body.todosDeleted})`,
      );
      process.stdout.write(
        `  kill ${cycle}/${KILLS}: ${present.size} todos present, ${acknowledged} writes acknowledged so far\r`,
      );
    }
    const exit = await stopServer(server);
    check(exit.code === 0, `${kind}: clean exit after the last restart (${JSON.stringify(exit)})`);
    if (kind === 'sqlite') {
      const { checkSqliteFile } = await import(
        pathToFileURL(path.join(root, 'server/dist/db/backup.js')).href
      );
      checkSqliteFile(path.join(database.dataDir, 'tally.db'));
    }
  } finally {
    server.child.kill('SIGKILL');
    await database.cleanup();
  }
  results[`durability_${kind}`] = {
    kills: KILLS,
    acknowledgedWrites: acknowledged,
    refusedWrites: refused.size,
    committedButUnanswered: unanswered,
    checks: checked,
  };
  console.info(
    `\n  ${KILLS} kills survived; ${acknowledged} acknowledged writes, ${refused.size} refused, ${checked} checks`,
  );
}

// ---- backup -------------------------------------------------------------------------------

async function backup(kind) {
  console.info(`\n== backup and restore on ${kind}`);
  const database = await freshDatabase(kind, 'backup');
  let server = await startServer(database.env);
  try {
    const user = await signUp(server.port);
    for (let i = 0; i < 50; i++) {
      await request(server.port, 'POST', '/api/todos', {
        body: { title: `kept ${i}` },
        token: user.token,
      });
    }
    let writing = true;
    let during = 0;
    const writer = (async () => {
      while (writing) {
        const r = await request(server.port, 'POST', '/api/todos', {
          body: { title: `during ${during}` },
          token: user.token,
        });
        if (r.status === 201) during++;
      }
    })();
    const file = path.join(database.dataDir, kind === 'sqlite' ? 'backup.db' : 'backup.dump');
    const env = { ...process.env, ...database.env };
    const run = (args) =>
      spawnSync(process.execPath, [path.join(root, 'server/dist/db/backup-cli.js'), ...args], {
        env,
        encoding: 'utf8',
      });
    const made = run(['backup', file]);
    writing = false;
    await writer;
    check(made.status === 0, `${kind}: db:backup failed: ${made.stderr}`);
    await request(server.port, 'POST', '/api/todos', {
      body: { title: 'after backup' },
      token: user.token,
    });
    await stopServer(server);
    const restored = run(['restore', file]);
    check(restored.status === 0, `${kind}: db:restore failed: ${restored.stderr}`);
    server = await startServer(database.env);
    await login(server.port, user);
    const titles = (
      await request(server.port, 'GET', '/api/todos', { token: user.token })
    ).body.map((t) => t.title);
    for (let i = 0; i < 50; i++)
      check(titles.includes(`kept ${i}`), `${kind}: "kept ${i}" missing after restore`);
    check(!titles.includes('after backup'), `${kind}: a write after the backup came back`);
    results[`backup_${kind}`] = { writesDuringBackup: during, restoredTodos: titles.length };
    console.info(
      `  backup taken under ${during} concurrent writes; restore gave back ${titles.length} todos`,
    );
    await stopServer(server);
  } finally {
    server.child.kill('SIGKILL');
    await database.cleanup();
  }
}

// ---- graceful shutdown --------------------------------------------------------------------

async function shutdown(kind) {
  console.info(`\n== graceful shutdown on ${kind}: SIGTERM under load`);
  const database = await freshDatabase(kind, 'shutdown');
  let server = await startServer(database.env);
  try {
    const user = await signUp(server.port);
    // Logins are slow (argon2id), so many are still running when the signal arrives.
    const inFlight = [];
    for (let i = 0; i < 90; i++) {
      inFlight.push(
        i % 3 !== 1
          ? request(server.port, 'POST', '/api/auth/login', {
              body: { username: user.username, password: user.password },
            })
          : request(server.port, 'POST', '/api/todos', {
              body: { title: `inflight ${i}` },
              token: user.token,
            }),
      );
    }
    // Long enough for every connection to be accepted, short enough that the argon2 work queued
    // behind them is still running.
    await sleep(150);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await sleep(300);
    const late = await Promise.all(
      Array.from({ length: 10 }, () =>
        request(server.port, 'GET', '/api/health', { timeout: 3000 }),
      ),
    );
    const answers = await Promise.all(inFlight);
    if (process.env.FAULT_DEBUG)
      console.info(answers.map((a, i) => `${i}:${a.status ?? a.error}`).join(' '));
    const exit = await server.exited;
    const finished = answers.filter((a) => a.status >= 200 && a.status < 300).length;
    const refusedCleanly = answers.filter(
      (a) => a.status === 503 || a.error === 'ECONNREFUSED',
    ).length;
    const broken = answers.length - finished - refusedCleanly;
    const lateRefused = late.filter((a) => a.error === 'ECONNREFUSED' || a.status === 503).length;
    check(
      broken === 0,
      `${kind}: ${broken} in-flight requests broke: ${JSON.stringify(answers.filter((a) => !(a.status >= 200 && a.status < 300) && a.status !== 503 && a.error !== 'ECONNREFUSED').slice(0, 3))}`,
    );
    check(
      lateRefused === late.length,
      `${kind}: new requests after SIGTERM were not refused: ${JSON.stringify(late)}`,
    );
    check(exit.code === 0, `${kind}: exit code ${exit.code} signal ${exit.signal}`);
    const seconds = (exit.at - signalled) / 1000;
    check(seconds < 10, `${kind}: took ${seconds}s to exit`);
    server = await startServer(database.env);
    await login(server.port, user);
    const titles = (
      await request(server.port, 'GET', '/api/todos', { token: user.token })
    ).body.map((t) => t.title);
    const acked = answers
      .map((a, i) => ({ a, i }))
      .filter(({ a, i }) => i % 3 === 1 && a.status === 201)
      .map(({ i }) => `inflight ${i}`);
    check(
      acked.every((t) => titles.includes(t)),
      `${kind}: an acknowledged write was lost at shutdown`,
    );
    results[`shutdown_${kind}`] = {
      inFlight: answers.length,
      finished,
      refusedCleanly,
      broken,
      newRefused: lateRefused,
      exitSeconds: seconds,
    };
    console.info(
      `  ${finished} in-flight finished, ${refusedCleanly} refused cleanly, ${broken} broken; ${lateRefused}/${late.length} new refused; exit ${exit.code} after ${seconds.toFixed(2)} s; reopened cleanly`,
    );
    await stopServer(server);
  } finally {
    server.child.kill('SIGKILL');
    await database.cleanup();
  }
}

// ---- the database going away (PostgreSQL behind a proxy we control) ------------------------

function tcpProxy(targetPort) {
  const sockets = new Set();
  let server = null;
  let port = 0;
  const listen = () =>
    new Promise((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(targetPort, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = server.address().port;
        resolve(port);
      });
    });
  return {
    listen,
    get port() {
      return port;
    },
    async cut() {
      await new Promise((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}

async function outage() {
  console.info('\n== PostgreSQL going away (a TCP proxy on loopback, cut and restored)');
  const database = await freshDatabase('postgres', 'outage');
  const pgPort = Number(new URL(PG_ADMIN).port || 5432);
  const proxy = tcpProxy(pgPort);
  await proxy.listen();
  const url = new URL(database.url);
  url.port = String(proxy.port);
  url.hostname = '127.0.0.1';
  const server = await startServer({ ...database.env, DATABASE_URL: url.toString() });
  try {
    const user = await signUp(server.port);
    await request(server.port, 'POST', '/api/todos', {
      body: { title: 'before' },
      token: user.token,
    });
    await proxy.cut();
    const timed = async (method, target, body) => {
      const started = Date.now();
      const r = await request(server.port, method, target, {
        body,
        token: user.token,
        timeout: 20_000,
      });
      return { ...r, ms: Date.now() - started };
    };
    const health = await timed('GET', '/api/health');
    const list = await timed('GET', '/api/todos');
    const create = await timed('POST', '/api/todos', { title: 'during' });
    for (const [name, r] of Object.entries({ health, list, create })) {
      check(r.status === 503, `outage: ${name} answered ${r.status ?? r.error}, expected 503`);
      check(
        typeof r.body?.error === 'string' && !/select|insert|postgres|ECONN/i.test(r.body.error),
        `outage: ${name} body ${JSON.stringify(r.body)}`,
      );
      check(r.ms < 8000, `outage: ${name} took ${r.ms} ms`);
    }
    check(server.child.exitCode === null, 'outage: the server died');
    await proxy.listen();
    const restoredAt = Date.now();
    let back = null;
    while (Date.now() - restoredAt < 30_000) {
      const h = await request(server.port, 'GET', '/api/health');
      if (h.status === 200) {
        back = Date.now() - restoredAt;
        break;
      }
      await sleep(200);
    }
    check(back !== null, 'outage: service did not come back within 30 s');
    const after = await request(server.port, 'GET', '/api/todos', { token: user.token });
    check(
      after.status === 200 && after.body.some((t) => t.title === 'before'),
      `outage: after recovery ${after.status}`,
    );
    check(!after.body?.some((t) => t.title === 'during'), 'outage: a refused write appeared');
    results.outage_postgres = {
      health: health.status,
      healthMs: health.ms,
      call: list.status,
      callMs: list.ms,
      write: create.status,
      writeMs: create.ms,
      recoveredAfterMs: back,
    };
    console.info(
      `  cut: health ${health.status} in ${health.ms} ms, GET ${list.status} in ${list.ms} ms, POST ${create.status} in ${create.ms} ms; back ${back} ms after the proxy returned`,
    );
    await stopServer(server);
  } finally {
    server.child.kill('SIGKILL');
    await proxy.cut().catch(() => undefined);
    await database.cleanup();
  }
}

// ---- soak ---------------------------------------------------------------------------------

async function soak() {
  console.info(`\n== soak on sqlite: ${SOAK_SECONDS} s at ${SOAK_RATE} requests/s`);
  const database = await freshDatabase('sqlite', 'soak');
  const probeFile = path.join(database.dataDir, 'probe.json');
  const server = await startServer(
    { ...database.env, FAULT_PROBE_FILE: probeFile },
    { memoryProbe: true },
  );
  const samples = [];
  const errors = [];
  let sent = 0;
  let inFlight = 0;
  let skipped = 0;
  try {
    const user = await signUp(server.port);
    const ids = [];
    let tokenAt = Date.now();
    const started = Date.now();
    const end = started + SOAK_SECONDS * 1000;
    const interval = 1000 / SOAK_RATE;
    let next = started;
    let lastSample = 0;
    const one = async () => {
      const op = random();
      let r;
      if (op < 0.35) r = await request(server.port, 'GET', '/api/todos', { token: user.token });
      else if (op < 0.55 || ids.length < 10) {
        r = await request(server.port, 'POST', '/api/todos', {
          body: { title: `soak ${sent}` },
          token: user.token,
        });
        if (r.status === 201) ids.push(r.body.id);
      } else if (op < 0.7) {
        const id = pick(ids);
        r = await request(server.port, 'PUT', `/api/todos/${id}`, {
          body: {
            title: `soak upd ${sent}`,
            description: 'x',
            groupId: null,
            completed: random() < 0.5,
          },
          token: user.token,
        });
        if (r.status === 404) r = { status: 200 }; // deleted concurrently
      } else if (op < 0.85 && ids.length > 0) {
        const id = ids.splice(Math.floor(random() * ids.length), 1)[0];
        r = await request(server.port, 'DELETE', `/api/todos/${id}`, { token: user.token });
      } else if (op < 0.97) {
        r = await request(
          server.port,
          'GET',
          pick(['/api/statistics/total', '/api/statistics/recent?days=30', '/api/todo-groups']),
          { token: user.token },
        );
      } else {
        r = await request(server.port, 'POST', '/api/auth/login', {
          body: { username: user.username, password: user.password },
        });
      }
      if (!(r.status >= 200 && r.status < 300)) errors.push(r.status ?? r.error);
    };
    while (Date.now() < end) {
      if (Date.now() - tokenAt > 10 * 60 * 1000) {
        await login(server.port, user);
        tokenAt = Date.now();
      }
      const now = Date.now();
      if (now >= next) {
        next += interval;
        if (inFlight >= 20) skipped++;
        else {
          inFlight++;
          sent++;
          void one().finally(() => inFlight--);
        }
      }
      if (now - lastSample >= 5000) {
        lastSample = now;
        try {
          samples.push({
            t: Math.round((now - started) / 1000),
            ...JSON.parse(readFileSync(probeFile, 'utf8')),
          });
        } catch {
          // first second
        }
        if (samples.length % 12 === 0 && samples.length) {
          const s = samples.at(-1);
          process.stdout.write(
            `  t=${s.t}s rss ${(s.rss / 2 ** 20).toFixed(1)} MB heap ${(s.heapUsed / 2 ** 20).toFixed(1)} MB fds ${s.fds} sent ${sent}\r`,
          );
        }
      }
      await sleep(Math.max(0, Math.min(next - Date.now(), 5)));
    }
    while (inFlight > 0) await sleep(20);
    const warm = samples.filter((s) => s.t >= Math.max(10, SOAK_SECONDS * 0.2));
    const mean = (list, key) => list.reduce((sum, s) => sum + s[key], 0) / Math.max(1, list.length);
    const head = warm.slice(0, 3);
    const tail = warm.slice(-3);
    const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;
    const summary = {
      seconds: SOAK_SECONDS,
      rate: SOAK_RATE,
      requests: sent,
      skippedOverload: skipped,
      errors: errors.length,
      rssMbAfterWarmup: mb(mean(head, 'rss')),
      rssMbEnd: mb(mean(tail, 'rss')),
      heapMbAfterWarmup: mb(mean(head, 'heapUsed')),
      heapMbEnd: mb(mean(tail, 'heapUsed')),
      fdsAfterWarmup: Math.max(...head.map((s) => s.fds)),
      fdsEnd: Math.max(...tail.map((s) => s.fds)),
      handlesAfterWarmup: Math.max(...head.map((s) => s.handles)),
      handlesEnd: Math.max(...tail.map((s) => s.handles)),
    };
    results.soak_sqlite = summary;
    console.info(`\n  ${JSON.stringify(summary)}`);
    check(
      errors.length === 0,
      `soak: ${errors.length} errors: ${[...new Set(errors)].slice(0, 5)}`,
    );
    check(skipped === 0, `soak: ${skipped} requests skipped because 20 were already in flight`);
    check(warm.length >= 4, 'soak: too few memory samples');
    check(
      summary.rssMbEnd - summary.rssMbAfterWarmup < Math.max(30, summary.rssMbAfterWarmup * 0.2),
      'soak: RSS grew',
    );
    check(summary.heapMbEnd - summary.heapMbAfterWarmup < 15, 'soak: heap grew');
    check(summary.fdsEnd - summary.fdsAfterWarmup <= 5, 'soak: file descriptors grew');
    check(summary.handlesEnd - summary.handlesAfterWarmup <= 5, 'soak: active handles grew');
    await stopServer(server);
  } finally {
    server.child.kill('SIGKILL');
    await database.cleanup();
  }
}

// ---- main ---------------------------------------------------------------------------------

const started = Date.now();
try {
  for (const stage of STAGES) {
    if (stage === 'durability') for (const kind of DATABASES) await durability(kind);
    else if (stage === 'backup') for (const kind of DATABASES) await backup(kind);
    else if (stage === 'shutdown') for (const kind of DATABASES) await shutdown(kind);
    else if (stage === 'outage') {
      if (DATABASES.includes('postgres')) await outage();
    } else if (stage === 'soak') await soak();
    else throw new Error(`unknown stage ${stage}`);
  }
} catch (error) {
  failures.push(`harness error: ${error.stack ?? error}`);
  console.error(error);
}
const report = {
  at: new Date().toISOString(),
  seconds: Math.round((Date.now() - started) / 1000),
  results,
  failures,
};
mkdirSync(path.join(root, '.reports'), { recursive: true });
writeFileSync(path.join(root, '.reports', 'faults.json'), `${JSON.stringify(report, null, 2)}\n`);
console.info(
  `\n${failures.length === 0 ? 'PASS' : 'FAIL'}: fault suites in ${report.seconds} s (report in .reports/faults.json)`,
);
if (failures.length) {
  for (const f of failures) console.error(`- ${f}`);
  process.exitCode = 1;
}
