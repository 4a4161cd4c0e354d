// `npm run build && node bench/caldav.mjs`: CalDAV at 10,000 todos (docs/performance.md,
// CalDAV). Seeds a user with 10,000 todos in 5 groups (lib/seed.mjs, a third planned), starts the
// built server on SQLite (--dialect=postgres: BENCH_PG_URL's database tally_bench_caldav), makes
// an app password through the API and does what a client's first sync does: PROPFIND depth 1 on
// the calendar home, then per calendar a sync-collection without a token (ETags) and
// calendar-multigets of 500 hrefs (--batch; the objects). It reports the wall time, the server's own CPU
// time (/proc/<pid>/stat) and its peak RSS (VmRSS every 20 ms) during that sync, then the median
// of 20 incremental sync-collections after one change made in the web app.
// Budgets: first full sync ≤ 10 s of server time, one-change sync ≤ 50 ms, RSS within the
// runtime's budget under load (peak ≤ 150 MB: docs/performance.md, Footprint).
// Flags: --todos=N (default 10000), --port=N (default 3350), --dialect=sqlite|postgres,
// --batch=N hrefs per multiget (default 500), --entry=file the server starts from (default
// server/bin/serve.mjs, as `npm start`; server/dist/main.js is the unbundled server),
// --node=<flag,flag> more Node flags, --gc: also what V8's collector did during the full sync
// (`--trace-gc-nvp` read from the server's output: collections, bytes allocated, the bytes that
// survived a young-generation collection and those promoted to old space, the heap's size), the
// figures that explain its peak (docs/performance.md, CalDAV).
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverNodeFlags } from '../server/bin/node-flags.mjs';
import { DOMParser } from '@xmldom/xmldom';
import { createDatabase, dropDatabase, PASSWORD, seed } from './lib/seed.mjs';
import { readWriteToken, waitUntilHealthy } from './lib/server.mjs';
import { signAccessToken } from './lib/tokens.mjs';
import { cpuMs, median, option, rssMegabytes } from './lib/measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const args = process.argv.slice(2);
const TODOS = Number(option('todos') ?? 10_000);
const PORT = Number(option('port') ?? 3350);
const DIALECT = option('dialect') ?? 'sqlite';
const JWT_SECRET = 'bench-secret-that-is-at-least-32-bytes-long!!';
const FULL_SYNC_BUDGET_MS = 10_000;
const PEAK_RSS_BUDGET_MB = 150;
const INCREMENTAL_BUDGET_MS = 50;
/** Hrefs per calendar-multiget (DAVx⁵ asks for a few at a time, others for more). */
const MULTIGET_BATCH = Number(option('batch') ?? 500);
/** The file the server starts from: what `npm start` runs (the bundle), or server/dist/main.js. */
const ENTRY = option('entry') ?? 'server/bin/serve.mjs';
const GC = args.includes('--gc');

const dataDir = path.join(os.tmpdir(), `tally-bench-caldav-${PORT}`);
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const where = { dialect: DIALECT, dataDir, adminUrl, dbName: 'tally_bench_caldav' };
const target = await createDatabase(where);
const users = await seed(target, [
  { username: 'caldav', groups: 5, todos: TODOS, events: 0, planned: true },
]);
const user = users.get('caldav');
const access = await signAccessToken(JWT_SECRET, {
  id: user.id,
  username: 'caldav',
  sessionId: user.sessionId,
});

// As `npm start` runs it: the bundle, with the Node flags for its database
// (server/bin/node-flags.mjs; docs/performance.md, Footprint).
const child = spawn(
  process.execPath,
  [
    ...serverNodeFlags({ DATABASE_URL: target.databaseUrl ?? '' }),
    ...(option('node')?.split(',') ?? []),
    ...(GC ? ['--trace-gc-nvp'] : []),
    path.join(root, ENTRY),
  ],
  {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET,
      DATA_DIR: dataDir,
      DATABASE_URL: target.databaseUrl ?? '',
      REDIS_URL: '',
      WEB_CONCURRENCY: '1',
    },
    stdio: ['ignore', GC ? 'pipe' : 'ignore', 'inherit'],
  },
);
/** V8's `--trace-gc-nvp` lines, one per collection, as the server writes them. */
const gcLines = [];
if (GC) {
  let rest = '';
  child.stdout.setEncoding('utf8').on('data', (text) => {
    const lines = (rest + text).split('\n');
    rest = lines.pop() ?? '';
    gcLines.push(...lines.filter((line) => line.includes(' gc=')));
  });
}
/** What the collections among `lines` did: counts, and sums and peaks in MB. */
function gcSummary(lines) {
  const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
  const sum = { scavenges: 0, markCompacts: 0, allocated: 0, survived: 0, promoted: 0 };
  let heap = 0;
  let young = 0;
  for (const line of lines) {
    const field = (name) => Number(new RegExp(`\\b${name}=(\\d+)`).exec(line)?.[1] ?? 0);
    if (/ gc=s /.test(line)) {
      sum.scavenges += 1;
      sum.allocated += field('allocated');
      sum.survived += field('new_space_survived');
      sum.promoted += field('promoted');
    } else sum.markCompacts += 1;
    heap = Math.max(heap, field('end_memory_size'));
    young = Math.max(young, field('new_space_capacity'));
  }
  return (
    `${sum.scavenges} young-generation collections and ${sum.markCompacts} full ones; ` +
    `${mb(sum.allocated)} MB allocated, ${mb(sum.survived)} MB survived a young collection, ` +
    `${mb(sum.promoted)} MB promoted; heap at most ${mb(heap)} MB, semi-spaces at most ${mb(young)} MB`
  );
}
const base = `http://127.0.0.1:${PORT}`;
const xml = (text) => new DOMParser().parseFromString(text, 'text/xml').documentElement;
const hrefsOf = (document) =>
  Array.from(document.getElementsByTagNameNS('DAV:', 'response')).map(
    (response) => response.getElementsByTagNameNS('DAV:', 'href')[0]?.textContent ?? '',
  );

try {
  await waitUntilHealthy(base, { child });
  // Making a token asks for a recent sign-in (decision 071).
  const api = (method, url, body) =>
    fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const { authorization: basic } = await readWriteToken(base, {
    bearer: access,
    password: PASSWORD,
  });
  const dav = async (method, url, body, depth = '1') => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: basic, depth, 'content-type': 'application/xml' },
      body,
    });
    if (response.status !== 207) throw new Error(`${method} ${url}: ${response.status}`);
    return response.text();
  };
  const home = `/dav/calendars/${user.id}/`;

  let peak = rssMegabytes(child.pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMegabytes(child.pid));
  }, 20);
  const rssBefore = rssMegabytes(child.pid);
  const gcBefore = gcLines.length;
  const cpuBefore = cpuMs(child.pid);
  const started = performance.now();
  const listing = xml(
    await dav(
      'PROPFIND',
      home,
      '<d:propfind xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/"><d:prop><d:resourcetype/><d:displayname/><cs:getctag/><d:sync-token/></d:prop></d:propfind>',
    ),
  );
  const calendars = hrefsOf(listing).filter((href) => href !== home);
  const tokens = new Map();
  let objects = 0;
  let bytes = 0;
  for (const calendar of calendars) {
    const synced = xml(
      await dav(
        'REPORT',
        calendar,
        '<d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>',
      ),
    );
    tokens.set(calendar, synced.getElementsByTagNameNS('DAV:', 'sync-token')[0]?.textContent);
    const hrefs = hrefsOf(synced);
    for (let i = 0; i < hrefs.length; i += MULTIGET_BATCH) {
      const body = `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>${hrefs
        .slice(i, i + MULTIGET_BATCH)
        .map((href) => `<d:href>${href}</d:href>`)
        .join('')}</c:calendar-multiget>`;
      const answer = await dav('REPORT', calendar, body);
      bytes += answer.length;
      objects += xml(answer).getElementsByTagNameNS(
        'urn:ietf:params:xml:ns:caldav',
        'calendar-data',
      ).length;
    }
  }
  const fullMs = performance.now() - started;
  const fullCpu = cpuMs(child.pid) - cpuBefore;
  clearInterval(sampler);
  console.info(
    `first full sync: ${calendars.length} calendars, ${objects} objects (${(bytes / 1e6).toFixed(1)} MB), ` +
      `${(fullMs / 1000).toFixed(2)} s wall, ${(fullCpu / 1000).toFixed(2)} s server CPU ` +
      `(budget ${FULL_SYNC_BUDGET_MS / 1000} s); RSS ${rssBefore.toFixed(0)} MB before, ` +
      `${peak.toFixed(0)} MB at its peak (budget ${PEAK_RSS_BUDGET_MB} MB)`,
  );
  if (objects !== TODOS) throw new Error(`expected ${TODOS} objects, got ${objects}`);
  if (GC) {
    // The server's last lines of the sync may still be on their way.
    await new Promise((resolve) => setTimeout(resolve, 200));
    console.info(`during the full sync: ${gcSummary(gcLines.slice(gcBefore))}`);
  }

  const [inFirst] = await (await api('GET', '/api/todos?limit=1')).json();
  const segment = inFirst.groupId === null ? 'todos' : `group-${inFirst.groupId}`;
  const calendar = calendars.find((href) => href.endsWith(`/${segment}/`));
  let syncToken = tokens.get(calendar);
  const times = [];
  for (let round = 0; round < 20; round += 1) {
    await api('PATCH', `/api/todos/${inFirst.id}`, { title: `Changed ${round}` });
    const t0 = performance.now();
    const answer = xml(
      await dav(
        'REPORT',
        calendar,
        `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${syncToken}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`,
      ),
    );
    times.push(performance.now() - t0);
    if (hrefsOf(answer).length !== 1) throw new Error('an incremental sync must name one change');
    syncToken = answer.getElementsByTagNameNS('DAV:', 'sync-token')[0]?.textContent;
  }
  console.info(
    `incremental sync-collection, one change: median ${median(times).toFixed(1)} ms, ` +
      `max ${Math.max(...times).toFixed(1)} ms (budget ${INCREMENTAL_BUDGET_MS} ms); load ${os.loadavg()[0].toFixed(1)}`,
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await dropDatabase(where);
}
