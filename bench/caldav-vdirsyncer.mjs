// `npx tsc -b contract server && node bench/caldav-vdirsyncer.mjs`: vdirsyncer (Debian's, with its
// default configuration) against Tally and against Radicale (Debian's `radicale`), side by side
// on this machine (docs/performance.md, CalDAV: vdirsyncer). For each server, on a fresh store:
// a full sync that uploads N todos (--todos, default 5,000) from a local folder, a full sync
// that downloads them into an empty one, then syncs after one todo changed on the server (a
// PUT with If-Match, as another app makes it), --changes times. Each step's wall time and the
// server's own CPU time (/proc/<pid>/stat). The servers run one after the other in both orders
// (Tally first, then Radicale first), so neither gains from the other's warm caches; the last
// lines give each server's medians over both orders.
// Flags: --todos=N, --changes=N (default 5), --tally-port=N (default 3791), --radicale-port=N
// (default 5291),
// --dialect=sqlite|postgres (Tally's database; BENCH_PG_URL's database tally_bench_vdirsyncer),
// --entry=file Tally starts from (default server/dist/main.js).
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createDatabase, dropDatabase } from './lib/seed.mjs';
import { caldavAccount, waitUntilHealthy } from './lib/server.mjs';
import { cpuMs, median, option } from './lib/measure.mjs';
import { benchVtodo } from './lib/vtodo.mjs';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const TODOS = Number(option('todos') ?? 5_000);
const CHANGES = Number(option('changes') ?? 5);
const TALLY_PORT = Number(option('tally-port') ?? 3791);
const RADICALE_PORT = Number(option('radicale-port') ?? 5291);
const DIALECT = option('dialect') ?? 'sqlite';
const ENTRY = option('entry') ?? 'server/dist/main.js';
const work = path.join(os.tmpdir(), `tally-bench-vdirsyncer-${TALLY_PORT}`);

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
/** A sync of 5,000 new todos takes Radicale many minutes: only a hung client is stopped. */
const SYNC_TIMEOUT_MS = 60 * 60_000;

/** A vdirsyncer configuration of one pair: a local folder and one remote calendar. */
function vdirsyncerConfig(dir, remote) {
  const file = path.join(dir, 'config');
  mkdirSync(path.join(dir, 'local'), { recursive: true });
  writeFileSync(
    file,
    [
      '[general]',
      `status_path = "${path.join(dir, 'status')}/"`,
      '[pair bench]',
      'a = "bench_local"',
      'b = "bench_remote"',
      'collections = null',
      '[storage bench_local]',
      'type = "filesystem"',
      `path = "${path.join(dir, 'local')}/"`,
      'fileext = ".ics"',
      '[storage bench_remote]',
      'type = "caldav"',
      `url = "${remote.url}"`,
      `username = "${remote.username}"`,
      `password = "${remote.password}"`,
      '',
    ].join('\n'),
  );
  return file;
}

/** vdirsyncer's first step for a pair (not timed: it reads the calendar's properties only). */
const discover = (config) => run('vdirsyncer', ['-c', config, 'discover'], { input: 'y\n' });

async function sync(config, pid) {
  const cpu = cpuMs(pid);
  const started = performance.now();
  await run('vdirsyncer', ['-c', config, 'sync'], {
    maxBuffer: 64 * 1024 * 1024,
    timeout: SYNC_TIMEOUT_MS,
  });
  return { wallMs: performance.now() - started, cpuMs: cpuMs(pid) - cpu };
}

/** Starts Tally on a fresh database and makes an account and an app password. */
async function startTally() {
  const dataDir = path.join(work, 'tally-data');
  rmSync(dataDir, { recursive: true, force: true });
  const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const where = { dialect: DIALECT, dataDir, adminUrl, dbName: 'tally_bench_vdirsyncer' };
  const target = await createDatabase(where);
  const child = spawn(process.execPath, [path.join(root, ENTRY)], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(TALLY_PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-secret-that-is-at-least-32-bytes-long!!',
      DATA_DIR: dataDir,
      DATABASE_URL: target.databaseUrl ?? '',
      REDIS_URL: '',
      WEB_CONCURRENCY: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${TALLY_PORT}`;
  await waitUntilHealthy(base, { child });
  const { email, token, home } = await caldavAccount(base, 'vdirsyncer');
  return {
    name: 'Tally',
    child,
    remote: { url: `${base}${home}todos/`, username: email, password: token },
    stop: async () => {
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
      await dropDatabase(where);
    },
  };
}

/** Starts Radicale on a fresh folder with one calendar of VTODOs (no authentication). */
async function startRadicale() {
  const dir = path.join(work, 'radicale');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const config = path.join(dir, 'config');
  writeFileSync(
    config,
    [
      '[server]',
      `hosts = 127.0.0.1:${RADICALE_PORT}`,
      '[auth]',
      'type = none',
      '[storage]',
      `filesystem_folder = ${path.join(dir, 'collections')}`,
      '[logging]',
      'level = warning',
      '',
    ].join('\n'),
  );
  const child = spawn('radicale', ['--config', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${RADICALE_PORT}`;
  for (let waited = 0; ; waited += 100) {
    try {
      if ((await fetch(`${base}/.web/`)).status < 500) break;
    } catch {
      if (waited > 30_000) throw new Error('Radicale did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const auth = `Basic ${Buffer.from('bench:bench').toString('base64')}`;
  const made = await fetch(`${base}/bench/todos/`, {
    method: 'MKCALENDAR',
    headers: { authorization: auth, 'content-type': 'application/xml' },
    body: `<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>Todos</d:displayname><c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>`,
  });
  if (made.status !== 201) throw new Error(`Radicale MKCALENDAR: ${made.status}`);
  return {
    name: 'Radicale',
    child,
    remote: { url: `${base}/bench/todos/`, username: 'bench', password: 'bench' },
    stop: async () => {
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** Changes todo `i` on the server as another app would: GET, then PUT with its If-Match. */
async function changeOne(remote, i) {
  const auth = `Basic ${Buffer.from(`${remote.username}:${remote.password}`).toString('base64')}`;
  const url = `${remote.url}bench-${i}.ics`;
  const got = await fetch(url, { headers: { authorization: auth } });
  const etag = got.headers.get('etag');
  const text = (await got.text()).replace(/SUMMARY:[^\r\n]*/, `SUMMARY:Changed ${i}`);
  const put = await fetch(url, {
    method: 'PUT',
    headers: { authorization: auth, 'content-type': 'text/calendar', 'if-match': etag ?? '*' },
    body: text,
  });
  if (put.status >= 300) throw new Error(`PUT ${url}: ${put.status}`);
}

async function measure(start) {
  const server = await start();
  const dir = path.join(work, server.name);
  rmSync(dir, { recursive: true, force: true });
  try {
    const upload = vdirsyncerConfig(path.join(dir, 'upload'), server.remote);
    for (let i = 0; i < TODOS; i += 1) {
      writeFileSync(path.join(dir, 'upload', 'local', `bench-${i}.ics`), benchVtodo(i));
    }
    await discover(upload);
    const uploaded = await sync(upload, server.child.pid);
    const download = vdirsyncerConfig(path.join(dir, 'download'), server.remote);
    await discover(download);
    const downloaded = await sync(download, server.child.pid);
    const changed = [];
    for (let n = 0; n < CHANGES; n += 1) {
      const i = 7 + n * 11;
      await changeOne(server.remote, i);
      changed.push(await sync(download, server.child.pid));
      const local = readFileSync(path.join(dir, 'download', 'local', `bench-${i}.ics`), 'utf8');
      if (!local.includes(`SUMMARY:Changed ${i}`))
        throw new Error(`${server.name}: change not synced`);
    }
    return { name: server.name, uploaded, downloaded, changed };
  } finally {
    await server.stop();
  }
}

const load = () => os.loadavg()[0].toFixed(1);
const step = (steps) =>
  `${seconds(median(steps.map((s) => s.wallMs)))} (server ${seconds(median(steps.map((s) => s.cpuMs)))})`;
console.log(`vdirsyncer, ${TODOS} todos, Tally on ${DIALECT}; load ${load()}`);
const results = { Tally: [], Radicale: [] };
for (const order of [
  [startTally, startRadicale],
  [startRadicale, startTally],
]) {
  for (const start of order) {
    const { name, uploaded, downloaded, changed } = await measure(start);
    results[name].push({ uploaded, downloaded, changed });
    console.log(
      `${name.padEnd(8)} upload ${step([uploaded])}; download ${step([downloaded])}; one change (median of ${CHANGES}) ${step(changed)}; load ${load()}`,
    );
  }
}
for (const [name, runs] of Object.entries(results)) {
  console.log(
    `${name.padEnd(8)} medians of both orders: upload ${step(runs.map((r) => r.uploaded))}; download ${step(runs.map((r) => r.downloaded))}; one change ${step(runs.flatMap((r) => r.changed))}`,
  );
}
rmSync(work, { recursive: true, force: true });
