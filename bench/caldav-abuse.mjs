// `npx tsc -b contract server && node bench/caldav-abuse.mjs [--dialect=postgres]`: whether
// hostile CalDAV requests can stall the server (docs/security.md, CalDAV limits). Starts the
// built server on loopback (SQLite; --dialect=postgres: BENCH_PG_URL's database
// tally_bench_caldav_abuse), makes a user and an app password, then sends, one kind after the
// other, the proofs of concept of the security review: 32,000 CATEGORIES (213 KB), a VTODO with
// zoned X- properties in the years 0001 and 9999 and then its GET, 100 todos near the kept-size
// limit and then three calendar-queries over them, a deeply nested XML body, a PROPFIND of as
// many properties as the body limit holds, and a flood of CalDAV requests without credentials and
// with wrong ones. Meanwhile it asks GET /api/health every 20 ms and reports, per step, each
// request's status and time, the slowest /api/health answer during it (budget < 200 ms) and the
// server's peak RSS. Every request goes to 127.0.0.1; their number is fixed and each times out.
// Flags: --port=N (default 3360), --dialect=sqlite|postgres, --entry=file the server starts from
// (default server/dist/main.js), --flood=N requests of each flood (default 10,000), --concurrency=N
// (default 50), --queries=N large calendar-queries at once (default 3), --node=<flag,flag> more
// Node flags for the server (its output is then shown).
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase, dropDatabase, PASSWORD, seed } from './lib/seed.mjs';
import { readWriteToken, waitUntilHealthy } from './lib/server.mjs';
import { signAccessToken } from './lib/tokens.mjs';
import { option, rssMegabytes } from './lib/measure.mjs';
import { vcalendar } from './lib/vtodo.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const PORT = Number(option('port') ?? 3360);
const DIALECT = option('dialect') ?? 'sqlite';
const ENTRY = option('entry') ?? 'server/dist/main.js';
const FLOOD = Math.min(Number(option('flood') ?? 10_000), 20_000);
const CONCURRENCY = Math.min(Number(option('concurrency') ?? 50), 200);
/** How many of the large calendar-queries run at once (the review's proof of concept sent two). */
const QUERIES = Math.min(Number(option('queries') ?? 3), 10);
/** More Node flags for the server (--trace-gc: its collections, printed as they happen). */
const NODE_FLAGS = option('node')?.split(',') ?? [];
const JWT_SECRET = 'bench-secret-that-is-at-least-32-bytes-long!!';
const HEALTH_BUDGET_MS = 200;
const HEALTH_EVERY_MS = 20;
/** CalDAV's body limit and what it keeps of one object (server/src/caldav/limits.ts). */
const BODY_LIMIT = 256 * 1024;
const KEPT_LIMIT = 128 * 1024;
/** No single request of the bench may take longer. */
const REQUEST_TIMEOUT_MS = 120_000;

const dataDir = path.join(os.tmpdir(), `tally-bench-caldav-abuse-${PORT}`);
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const where = { dialect: DIALECT, dataDir, adminUrl, dbName: 'tally_bench_caldav_abuse' };
const target = await createDatabase(where);
const users = await seed(target, [{ username: 'abuse', groups: 0, todos: 0, events: 0 }]);
const user = users.get('abuse');
const access = await signAccessToken(JWT_SECRET, {
  id: user.id,
  username: 'abuse',
  sessionId: user.sessionId,
});

const child = spawn(process.execPath, [...NODE_FLAGS, path.join(root, ENTRY)], {
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
  stdio: ['ignore', NODE_FLAGS.length ? 'inherit' : 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${PORT}`;

/** The slowest /api/health answer and the peak RSS since the last reset. */
const watch = { slowest: 0, answers: 0, failures: 0, peak: 0 };
let watching = true;
/** Settles when the /api/health request on its way (if any) is answered. */
let inFlight = Promise.resolve();
async function pollHealth() {
  while (watching) {
    let answered;
    inFlight = new Promise((resolve) => {
      answered = resolve;
    });
    const started = performance.now();
    try {
      const answer = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(30_000) });
      await answer.arrayBuffer();
      if (!answer.ok) watch.failures += 1;
    } catch {
      watch.failures += 1;
    }
    watch.slowest = Math.max(watch.slowest, performance.now() - started);
    watch.answers += 1;
    watch.peak = Math.max(watch.peak, rssMegabytes(child.pid));
    answered();
    await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
  }
}

const results = [];
/** Runs one step, then reports what /api/health and the RSS did during it. */
async function step(name, run) {
  // A health request of the step before counts there, not here.
  await inFlight;
  Object.assign(watch, { slowest: 0, answers: 0, failures: 0, peak: rssMegabytes(child.pid) });
  const started = performance.now();
  const detail = await run();
  const ms = performance.now() - started;
  const line = {
    step: name,
    ms: Math.round(ms),
    detail,
    healthSlowestMs: Math.round(watch.slowest),
    healthAnswers: watch.answers,
    healthFailures: watch.failures,
    peakRssMb: Math.round(watch.peak),
  };
  results.push(line);
  console.info(
    `${name}: ${detail}; ${(ms / 1000).toFixed(2)} s; /api/health slowest ${line.healthSlowestMs} ms ` +
      `of ${watch.answers} (budget ${HEALTH_BUDGET_MS} ms${watch.failures ? `, ${watch.failures} failed` : ''}); ` +
      `RSS peak ${line.peakRssMb} MB`,
  );
}

/** A content line folded at 75 octets, as RFC 5545 (3.1) writes it. */
const folded = (line) => {
  const parts = [];
  for (let i = 0; i < line.length; i += 74) parts.push((i ? ' ' : '') + line.slice(i, i + 74));
  return parts;
};

try {
  await waitUntilHealthy(base, { child });
  // Making a token asks for a recent sign-in (decision 071).
  const { authorization: basic } = await readWriteToken(base, {
    bearer: access,
    password: PASSWORD,
  });
  const home = `/dav/calendars/${user.id}/`;
  /** One CalDAV request: its status and time (a refused or cut one too). */
  const dav = async (method, url, body, headers = {}) => {
    const started = performance.now();
    try {
      const answer = await fetch(`${base}${url}`, {
        method,
        headers: {
          authorization: basic,
          depth: '1',
          'content-type': method === 'PUT' ? 'text/calendar' : 'application/xml',
          ...headers,
        },
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await answer.text();
      return { status: answer.status, ms: performance.now() - started, bytes: text.length, text };
    } catch (error) {
      // A 413 may be sent, and the connection closed, before the whole body is.
      const why = `${error.name}: ${error.cause?.code ?? error.message}`;
      return { status: why, ms: performance.now() - started, bytes: 0, text: '' };
    }
  };
  const said = (r) =>
    `${r.status} in ${r.ms.toFixed(0)} ms${r.status >= 400 ? ` (${r.text.slice(0, 90)})` : ''}`;
  const polling = pollHealth();

  await step('PUT of 32,000 CATEGORIES (213 KB)', async () => {
    const values = Array.from({ length: 32_000 }, (_, i) => `c${i}`).join(',');
    const body = vcalendar('categories', ['SUMMARY:Many', ...folded(`CATEGORIES:${values}`)]);
    return `${(body.length / 1024).toFixed(0)} KB: ${said(await dav('PUT', `${home}todos/categories.ics`, body))}`;
  });

  await step('zoned X- properties in 0001 and 9999, PUT then GET', async () => {
    const href = `${home}todos/years.ics`;
    const put = await dav(
      'PUT',
      href,
      vcalendar('years', [
        'SUMMARY:Years',
        'X-A;TZID=Europe/Berlin;VALUE=DATE-TIME:00010101T000000',
        'X-B;TZID=America/New_York;VALUE=DATE-TIME:99991231T000000',
      ]),
    );
    const get = await dav('GET', href);
    return `PUT ${said(put)}; GET ${said(get)}, ${get.bytes} bytes`;
  });

  await step('DUE and DTSTART 8,000 years apart, PUT then GET', async () => {
    const href = `${home}todos/span.ics`;
    const put = await dav(
      'PUT',
      href,
      vcalendar('span', [
        'SUMMARY:Span',
        'DTSTART;TZID=Europe/Berlin:19700101T000000',
        'DUE;TZID=Europe/Berlin:99991231T090000',
      ]),
    );
    const get = await dav('GET', href);
    return `PUT ${said(put)}; GET ${said(get)}, ${get.bytes} bytes`;
  });

  let nearLimit = 0;
  await step(
    '100 PUTs of todos near the limits (a 20,000-character description in 3-byte characters)',
    async () => {
      const note = 'n'.repeat(KEPT_LIMIT - 4 * 1024);
      const description = folded(`DESCRIPTION:${'\u6f22'.repeat(20_000)}`);
      const statuses = new Map();
      let slowest = 0;
      for (let i = 0; i < 100; i += 1) {
        const body = vcalendar(`big-${i}`, [
          `SUMMARY:Big ${i}`,
          ...description,
          ...folded(`X-NOTE:${note}`),
        ]);
        nearLimit = Buffer.byteLength(body);
        const put = await dav('PUT', `${home}todos/big-${i}.ics`, body);
        statuses.set(put.status, (statuses.get(put.status) ?? 0) + 1);
        slowest = Math.max(slowest, put.ms);
      }
      return `${(nearLimit / 1024).toFixed(0)} KB each: ${[...statuses].map(([s, n]) => `${n}× ${s}`).join(', ')}, slowest ${slowest.toFixed(0)} ms`;
    },
  );

  const query =
    '<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:prop-filter name="COMPLETED"><c:is-not-defined/></c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>';
  await step('a calendar-query over them', async () => {
    const answer = await dav('REPORT', `${home}todos/`, query);
    return `${answer.status} in ${answer.ms.toFixed(0)} ms (${(answer.bytes / 1e6).toFixed(1)} MB)`;
  });

  await step(`${QUERIES} calendar-queries over them at once`, async () => {
    const answers = await Promise.all(
      Array.from({ length: QUERIES }, () => dav('REPORT', `${home}todos/`, query)),
    );
    return answers
      .map((r) => `${r.status} in ${r.ms.toFixed(0)} ms (${(r.bytes / 1e6).toFixed(1)} MB)`)
      .join('; ');
  });

  await step('a PROPFIND nested as deep as the body limit holds', async () => {
    const depth = Math.floor((BODY_LIMIT - 100) / 7);
    const body = `<d:propfind xmlns:d="DAV:">${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</d:propfind>`;
    return `${depth.toLocaleString('en')} levels: ${said(await dav('PROPFIND', home, body))}`;
  });

  await step('a PROPFIND of as many properties as the body limit holds', async () => {
    const count = Math.floor((BODY_LIMIT - 200) / 9);
    const props = Array.from({ length: count }, (_, i) => `<x:p${i % 1000}/>`).join('');
    const body = `<d:propfind xmlns:d="DAV:" xmlns:x="urn:x"><d:prop>${props}</d:prop></d:propfind>`;
    return `${count.toLocaleString('en')} properties: ${said(await dav('PROPFIND', home, body))}`;
  });

  await step('a 4 MiB PUT', async () => {
    const body = vcalendar('huge', [
      'SUMMARY:Huge',
      ...folded(`X-NOTE:${'h'.repeat(4 * 1024 * 1024)}`),
    ]);
    return said(await dav('PUT', `${home}todos/huge.ics`, body));
  });

  /** `FLOOD` requests, CONCURRENCY at a time, each with the headers `headersOf(i)` makes. */
  const flood = async (headersOf) => {
    const statuses = new Map();
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < FLOOD) {
        next += 1;
        let status;
        try {
          const answer = await fetch(`${base}/dav/`, {
            method: 'PROPFIND',
            headers: { depth: '0', ...headersOf(next) },
            signal: AbortSignal.timeout(30_000),
          });
          await answer.arrayBuffer();
          status = answer.status;
        } catch (error) {
          status = error.name;
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    return `${FLOOD.toLocaleString('en')} requests in ${seconds.toFixed(1)} s (${(FLOOD / seconds).toFixed(0)}/s): ${[...statuses].map(([s, n]) => `${n}× ${s}`).join(', ')}`;
  };

  await step('a flood of PROPFINDs without credentials', () => flood(() => ({})));
  await step('a flood of PROPFINDs with wrong credentials, a new username each', () =>
    flood((i) => ({
      authorization: `Basic ${Buffer.from(`flood-${i}@example.com:wrong-token-${i}`).toString('base64')}`,
    })),
  );

  watching = false;
  await polling;
  const slowest = Math.max(...results.map((r) => r.healthSlowestMs));
  console.info(
    `slowest /api/health answer over all steps: ${slowest} ms (budget ${HEALTH_BUDGET_MS} ms); ` +
      `${DIALECT}; load ${os.loadavg()[0].toFixed(1)}`,
  );
} finally {
  watching = false;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await dropDatabase(where);
}
