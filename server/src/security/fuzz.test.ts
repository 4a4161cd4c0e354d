import { authApi, ERROR_CODES, groupsApi, todosApi } from '@tally/contract';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  refreshCookieOf,
  registerUser,
  type TestContext,
  type TestUser,
  uniqueName,
} from '../test/helpers.js';
import {
  davBodies,
  davCredentials,
  type DavCredentials,
  davMethods,
  davRoutePaths,
  davSender,
  davVtodo,
} from '../test/caldav.js';
import { type LocalGoogleIdp, startLocalGoogleIdp } from '../test/local-google-idp.js';
import {
  type LocalOidcProvider,
  oidcSettingsFor,
  startLocalOidcProvider,
} from '../test/local-oidc-provider.js';
import { type LocalSmtp, startLocalSmtp } from '../test/local-smtp.js';
import {
  idsOfUser,
  invariantViolations,
  type JsonSchema,
  routeCollector,
  type RouteEntry,
  snapshotUser,
  tableCounts,
} from '../test/security.js';

/**
 * Property-based fuzzing of every route in the route table: bodies, query strings, path
 * parameters and headers, valid, nearly valid and hostile. For every case: no 5xx; every 4xx is
 * JSON {error} naming the problem; a refused request changes no row (so no counter); the other
 * user's rows stay byte for byte; after each route the database invariants hold.
 *
 * FUZZ_RUNS (default 100) cases per route and method; FUZZ_SEED (default 20260310) fixes the seed.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_310);
const CLIENT_ID = 'tally-fuzz.apps.googleusercontent.com';

interface Corpus {
  text: { value: string | { repeat: string; times: number } }[];
  rejectedText: { value: string }[];
}
const corpus = JSON.parse(
  readFileSync(new URL('./payloads.json', import.meta.url), 'utf8'),
) as Corpus;
const nasty = [
  ...corpus.text.map(({ value }) =>
    typeof value === 'string' ? value : value.repeat.repeat(Math.min(value.times, 3000)),
  ),
  ...corpus.rejectedText.map(({ value }) => value),
];

const collector = routeCollector();
let idp: LocalGoogleIdp;
/** Single sign-on is on, so its routes answer as in production (not 503). */
let oidcIdp: LocalOidcProvider;
const PUBLIC_URL = 'http://localhost:3000';
let smtp: LocalSmtp;
let ctx: TestContext;
let owner: TestUser;
let fuzzer: TestUser;
let ownerIds: number[];
let fuzzerIds: number[];
let totalCases = 0;
const statusCounts = new Map<number, number>();

beforeAll(async () => {
  idp = await startLocalGoogleIdp(CLIENT_ID);
  oidcIdp = await startLocalOidcProvider({ publicUrl: PUBLIC_URL });
  // With e-mail on, the mail routes answer as in production (without it, a resend is a 503).
  smtp = await startLocalSmtp();
  ctx = await createTestApp({
    onRoute: collector.onRoute,
    config: {
      googleClientId: CLIENT_ID,
      googleJwksUrl: idp.jwksUrl,
      googleIssuers: ['https://accounts.google.com'],
      publicUrl: PUBLIC_URL,
      oidc: oidcSettingsFor(oidcIdp),
      smtpUrl: smtp.url,
      mailFrom: 'tally@example.com',
    },
  });
  ctx.clock.current = Date.now();
  const db = ctx.database.handle.db;
  owner = await registerUser(ctx.app, uniqueName('owner'));
  fuzzer = await registerUser(ctx.app, uniqueName('fuzzer'));
  for (const u of [owner, fuzzer]) {
    const call = apiClient(ctx.app, u);
    for (let i = 0; i < 3; i++) {
      const group = await call(groupsApi.create, { body: { name: `g${i}`, color: '#3B82F6' } });
      await call(todosApi.create, {
        body: { title: `t${i}`, groupId: group.json<{ id: number }>().id },
      });
    }
  }
  ownerIds = await idsOfUser(db, owner.id);
  fuzzerIds = await idsOfUser(db, fuzzer.id);
});

afterAll(async () => {
  const statuses = [...statusCounts].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`);
  console.info(
    `[fuzz] ${totalCases} cases (seed ${SEED}, ${RUNS} per route×method); statuses ${statuses.join(' ')}`,
  );
  await ctx.close();
  await idp.close();
  await smtp.close();

  await oidcIdp.close();
});

// ---- arbitraries -------------------------------------------------------------------------

const anyId = () =>
  fc.oneof(
    fc.constantFrom(...ownerIds, ...fuzzerIds),
    fc.integer({ min: -5, max: 2_147_483_648 }),
    fc.constantFrom(0, -1, 2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER, 1e21, 1.5),
  );

const text = (min = 0, max = 60) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 2, arbitrary: fc.string({ minLength: min, maxLength: max, unit: 'binary' }) },
    { weight: 2, arbitrary: fc.constantFrom(...nasty) },
  );

const BOUNDARY_DATES = [
  '0000-01-01',
  '0001-01-01',
  '1969-12-31',
  '1970-01-01',
  '1970-01-02',
  '2024-02-29',
  '2023-02-29',
  '9999-12-30',
  '9999-12-31',
];

/** Values the schema accepts (mostly): the shape the server must handle carefully. */
function validArb(schema: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => validArb(s, name)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return name === 'days'
        ? fc.integer({ min: -2, max: 400 })
        : fc.oneof(
            fc.constantFrom(...ownerIds, ...fuzzerIds),
            fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000 }),
          );
    case 'object': {
      const props = Object.entries(schema.properties ?? {});
      const required = new Set(schema.required ?? []);
      return fc.record(Object.fromEntries(props.map(([key, s]) => [key, validArb(s, key)])), {
        requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)),
      });
    }
    case 'string': {
      if (schema.pattern?.includes('\\d{4}')) {
        return fc.oneof(
          fc
            .date({ min: new Date('1960-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
          fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          // The ends of the calendar the schema accepts, and the days around them.
          fc.constantFrom(...BOUNDARY_DATES),
        );
      }
      if (schema.pattern?.startsWith('^[A-Za-z0-9._-]')) {
        return fc.stringMatching(/^[A-Za-z0-9._-]{3,32}$/);
      }
      if (schema.format === 'email') return fc.emailAddress();
      if (name === 'token') {
        return fc.oneof(
          fc.string({ minLength: 1, maxLength: 200 }),
          fc
            .record({ sub: fc.string({ minLength: 1, maxLength: 20 }), email: fc.emailAddress() })
            .chain((claims) => fc.constant(claims)) // issued lazily below
            .map((claims) => `idp:${JSON.stringify(claims)}`),
        );
      }
      if (name === 'color') return fc.constantFrom('#3B82F6', '#EF4444');
      return text(schema.minLength ?? 0, Math.min(schema.maxLength ?? 60, 80));
    }
    default:
      return fc.jsonValue();
  }
}

/** A valid object with one field broken, dropped, or an extra field added. */
function mutatedArb(schema: JsonSchema): fc.Arbitrary<unknown> {
  const keys = Object.keys(schema.properties ?? {});
  if (keys.length === 0) return fc.jsonValue();
  return fc
    .tuple(validArb(schema), fc.constantFrom(...keys), fc.nat(3), fc.jsonValue(), text())
    .map(([value, key, how, junk, s]) => {
      const copy = { ...(value as Record<string, unknown>) };
      if (how === 0) copy[key] = junk;
      else if (how === 1) Reflect.deleteProperty(copy, key);
      else if (how === 2) copy[s || 'extra'] = junk;
      else copy[key] = s;
      return copy;
    });
}

const header = fc.string({ maxLength: 80 });
const headersArb = (entry: RouteEntry) =>
  fc.record(
    {
      authorization: fc.oneof(
        { weight: 8, arbitrary: fc.constant(`Bearer ${fuzzer.token}`) },
        { weight: 1, arbitrary: fc.constant(`Bearer ${owner.token.slice(0, -2)}xx`) },
        { weight: 1, arbitrary: header },
        { weight: 1, arbitrary: header.map((h) => `Bearer ${h}`) },
      ),
      'content-type': fc.oneof(
        { weight: 8, arbitrary: fc.constant('application/json') },
        {
          weight: 2,
          arbitrary: fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/json; charset=utf-16',
            'multipart/form-data',
            '',
          ),
        },
        { weight: 1, arbitrary: header },
      ),
      'x-time-zone': fc.oneof(
        fc.constantFrom('Europe/Berlin', 'Pacific/Kiritimati', 'America/St_Johns', 'UTC'),
        header,
        fc.constant('x'.repeat(500)),
      ),
      cookie: fc.oneof(
        fc.constant('session'),
        header.map((h) => `tally_refresh=${h}`),
        header,
      ),
      'x-forwarded-for': header,
      accept: fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml'),
    },
    { requiredKeys: entry.public ? [] : ['authorization'] },
  );

interface Case {
  path: string;
  query: Record<string, unknown> | string;
  body: unknown;
  raw: string | null;
  headers: Record<string, string>;
}

/** Percent-encodes; a lone surrogate becomes the bytes of its (invalid) UTF-8 encoding. */
function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/\p{Surrogate}/gu, 'x')) + '%ED%A0%80';
  }
}

function caseArb(entry: RouteEntry): fc.Arbitrary<Case> {
  const segment = fc.oneof(
    { weight: 5, arbitrary: anyId().map(String) },
    { weight: 2, arbitrary: text(0, 30) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '1e3',
        '0x10',
        ' 1',
        '1 ',
        '+1',
        '-0',
        '99999999999999999999',
        '..%2F..%2Fetc%2Fpasswd',
        '%00',
        'null',
        'NaN',
      ),
    },
  );
  const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((values) => {
    let i = 0;
    return entry.url
      .replace(/:(\w+)/g, () => {
        const v = values[i++ % values.length] as string;
        return /^%/.test(v) ? v : encodeSegment(v);
      })
      .replace('*', () => (values[0] as string).replace(/^\//, ''));
  });
  const query = entry.querystring
    ? fc.oneof(
        {
          weight: 4,
          arbitrary: validArb(entry.querystring) as fc.Arbitrary<Record<string, unknown>>,
        },
        {
          weight: 2,
          arbitrary: mutatedArb(entry.querystring) as fc.Arbitrary<Record<string, unknown>>,
        },
        { weight: 1, arbitrary: fc.dictionary(text(0, 10), text(0, 20), { maxKeys: 3 }) },
        { weight: 1, arbitrary: text(0, 40) },
      )
    : fc.oneof(
        { weight: 6, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.dictionary(text(0, 10), text(0, 20), { maxKeys: 3 }) },
      );
  const body = entry.body
    ? fc.oneof(
        { weight: 4, arbitrary: validArb(entry.body) },
        { weight: 4, arbitrary: mutatedArb(entry.body) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
      )
    : fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
      );
  const raw = fc.oneof(
    { weight: 12, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: text(0, 200) },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', '[]', '""', 'null', '{"__proto__":{}}') },
  );
  return fc.record({ path, query, body, raw, headers: headersArb(entry) });
}

// ---- checks ------------------------------------------------------------------------------

function fieldNames(entry: RouteEntry): string[] {
  return [entry.body, entry.querystring, entry.params].flatMap((s) =>
    Object.keys(s?.properties ?? {}),
  );
}

const GENERIC = ['The request is malformed', 'The request cannot be processed'];
const NAMES_SOMETHING =
  /body|query|params|URL|JSON|UTF-8|Unicode|Content-Type|groupId|date|repeat|token|session|Google|credential|password|username|e-mail|taken|registered|already|group|Too many|Authentication|Not found|not found|too large|Method/;

/** Turns placeholders into real credentials: a Google ID token, a live refresh cookie. */
async function prepare(entry: RouteEntry, c: Case): Promise<Case> {
  let body = c.body;
  const token = (body as { token?: unknown } | null)?.token;
  if (typeof token === 'string' && token.startsWith('idp:')) {
    body = {
      ...(body as object),
      token: await idp.issue(JSON.parse(token.slice(4)) as Record<string, string>),
    };
  }
  const headers = { ...c.headers };
  if (headers.cookie === 'session' && entry.url.startsWith('/api/auth/')) {
    const login = await apiClient(ctx.app, null)(authApi.login, {
      body: { username: fuzzer.username, password: fuzzer.password },
    });
    headers.cookie = refreshCookieOf(login);
  }
  return { ...c, body, headers };
}

async function send(entry: RouteEntry, c: Case): Promise<LightMyRequestResponse> {
  const options: InjectOptions = {
    method: entry.method as 'GET',
    url: c.path,
    query: c.query as Record<string, string>,
    headers: c.headers,
  };
  if (c.raw !== null) options.payload = c.raw;
  else if (c.body !== undefined) options.payload = JSON.stringify(c.body);
  return ctx.app.inject(options);
}

describe('fuzzing every route', () => {
  it('covers the route table', () => {
    const entries = collector.entries().filter((e) => e.url.startsWith('/api') && !e.stream);
    expect(entries.length).toBeGreaterThan(20);
  });

  const entries = () => collector.entries().filter((e) => e.url.startsWith('/api') && !e.stream);
  /** Routes that answer a person's browser with a page (the signed links of notification e-mails). */
  const PAGES_FOR_PEOPLE = new Set([
    '/api/notifications/actions',
    '/api/notifications/unsubscribe',
  ]);

  // The table is only known once the app is built; one test per route would need it earlier.
  it('never answers 5xx, always names the problem, and never touches what it must not', async () => {
    const db = ctx.database.handle.db;
    const problems: string[] = [];
    const timings: string[] = [];
    for (const entry of entries()) {
      const label = `${entry.method} ${entry.url}`;
      const started = Date.now();
      const ownerBefore = await snapshotUser(db, owner.id);
      const names = fieldNames(entry);
      const result = await fc.check(
        fc.asyncProperty(caseArb(entry), async (generated) => {
          totalCases += 1;
          const c = await prepare(entry, generated);
          const before = await tableCounts(db);
          const response = await send(entry, c);
          statusCounts.set(response.statusCode, (statusCounts.get(response.statusCode) ?? 0) + 1);
          const status = response.statusCode;
          if (status >= 500) throw new Error(`${status} ${response.body}`);
          const page =
            PAGES_FOR_PEOPLE.has(entry.url) &&
            String(response.headers['content-type']).startsWith('text/html');
          if (status >= 400 && entry.method !== 'HEAD' && page) {
            // A link followed from an e-mail: a person reads why it was refused, as a page.
            expect(response.body.length).toBeGreaterThan(20);
          } else if (status >= 400 && entry.method !== 'HEAD') {
            expect(response.headers['content-type']).toMatch(/^application\/json/);
            const answer = response.json<Record<string, unknown>>();
            // A sentence, and beside it at most one of the contract's ERROR_CODES (with the
            // field and limit it concerns).
            const extra = new Set(['code', 'field', 'limit']);
            expect(Object.keys(answer).filter((key) => !extra.has(key))).toEqual(['error']);
            if ('code' in answer) expect(ERROR_CODES).toContain(answer.code);
            const error = String(answer.error);
            expect(error.length).toBeGreaterThan(5);
            expect(GENERIC).not.toContain(error);
            if (status === 400 && !names.some((n) => error.includes(n))) {
              expect(error).toMatch(NAMES_SOMETHING);
            }
          }
          if (status >= 400) {
            // A refused request writes nothing (no row, so no statistics counter either).
            expect(await tableCounts(db)).toBe(before);
          }
          if (entry.method !== 'GET' && entry.method !== 'HEAD') {
            expect(await snapshotUser(db, owner.id)).toBe(ownerBefore);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      if (result.failed) {
        problems.push(
          `${label}: ${String(result.errorInstance)} for ${JSON.stringify(result.counterexample)}`.slice(
            0,
            1500,
          ),
        );
      }
      const broken = await invariantViolations(db);
      if (broken.length) problems.push(`${label}: ${broken.join(', ')}`);
      timings.push(`${label} ${Date.now() - started}ms`);
    }
    if (process.env.FUZZ_TIMINGS) console.info(timings.join('\n'));
    expect(problems).toEqual([]);
  }, 600_000);
});

// ---- CalDAV ------------------------------------------------------------------------------

/** Lines a calendar app writes, with values that are sometimes theirs and sometimes not. */
const icsLine = fc
  .tuple(
    fc.constantFrom(
      'SUMMARY',
      'DESCRIPTION',
      'DUE',
      'DUE;VALUE=DATE',
      'DUE;TZID=Europe/Berlin',
      'DUE;TZID=Mars/Olympus',
      'DTSTART',
      'RRULE',
      'CATEGORIES',
      'PRIORITY',
      'RELATED-TO',
      'STATUS',
      'PERCENT-COMPLETE',
      'COMPLETED',
      'X-APPLE-SORT-ORDER',
      'BEGIN',
      'END',
      'TRIGGER;RELATED=END',
    ),
    fc.oneof(
      text(0, 40),
      fc.constantFrom(
        '20260310T120000Z',
        '20260310',
        '2026031',
        'FREQ=WEEKLY;BYDAY=MO,TU',
        'FREQ=DAILY;UNTIL=soon',
        'FREQ=MONTHLY;COUNT=x',
        '-PT15M',
        '-PTXM',
        'VALARM',
        'X-NEST',
        'tally-99999999999',
        'COMPLETED',
        '100',
      ),
    ),
  )
  .map(([name, value]) => `${name}:${value}`);

/** A body of the method's kind, garbled: cut short, spliced with junk, or made of random lines. */
function davBodyArb(list: (string | undefined)[]): fc.Arbitrary<string | undefined> {
  const valid = fc.constantFrom(...list);
  const garbled = fc.tuple(valid, fc.nat(), fc.nat(3), text(0, 40)).map(([body, at, how, junk]) => {
    if (body === undefined) return junk;
    const cut = at % (body.length + 1);
    if (how === 0) return body.slice(0, cut);
    if (how === 1) return body.slice(0, cut) + junk + body.slice(cut);
    if (how === 2) return body.replaceAll('>', `>${junk}`);
    return body.slice(cut);
  });
  const lines = fc
    .array(icsLine, { maxLength: 12 })
    .map((extra) => davVtodo(`fz-${extra.length}`, extra));
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 3, arbitrary: garbled },
    { weight: 3, arbitrary: lines },
    { weight: 1, arbitrary: text(0, 200) },
  );
}

/** The paths a method is meant for: resources, calendars, or a new calendar's. */
/** The fuzzer's own paths of each /dav route of the table that takes `method`. */
function davPaths(method: string, calendar: string): string[] {
  return davRoutePaths(collector.entries(), method, {
    owner: [fuzzer.id],
    calendar: ['todos', calendar, 'fz'],
    name: ['a.ics', 'b.ics'],
    '*': ['elsewhere/x'],
  });
}

function davCaseArb(
  dav: DavCredentials,
  method: string,
  calendar: string,
  list: (string | undefined)[],
) {
  const ownerHome = `/dav/calendars/${owner.id}/`;
  const base = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...davPaths(method, calendar)) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '/dav/',
        dav.home,
        ownerHome,
        `${ownerHome}todos/`,
        `/dav/principals/${fuzzer.id}/`,
        '/dav/calendars/',
      ),
    },
  );
  const path = fc
    .tuple(base, fc.option(text(0, 30), { freq: 5 }))
    .map(([start, extra]) => (extra === null ? start : `${start}${encodeSegment(extra)}`));
  const headers = fc.record(
    {
      authorization: fc.oneof(
        { weight: 8, arbitrary: fc.constant(dav.basic) },
        { weight: 1, arbitrary: header },
        { weight: 1, arbitrary: header.map((h) => `Basic ${Buffer.from(h).toString('base64')}`) },
      ),
      depth: fc.constantFrom('0', '1', 'infinity', 'x'),
      'if-match': fc.oneof(fc.constant('*'), header),
      'if-none-match': fc.constantFrom('*', '"x"'),
      'content-type': fc.oneof(
        { weight: 6, arbitrary: fc.constant(method === 'PUT' ? 'text/calendar' : 'text/xml') },
        { weight: 1, arbitrary: fc.constantFrom('application/xml', 'text/plain', '') },
      ),
    },
    { requiredKeys: ['authorization'] },
  );
  return fc.record({ path, body: davBodyArb(list), headers });
}

describe('fuzzing CalDAV', () => {
  it('never answers 5xx to a CalDAV request, however garbled, and a refused one writes nothing', async () => {
    const db = ctx.database.handle.db;
    const dav = await davCredentials(ctx.app, fuzzer);
    const send = davSender(ctx.app, ctx.clock);
    const methods = davMethods(collector.entries());
    const group = await db
      .selectFrom('todo_groups')
      .select('id')
      .where('user_id', '=', fuzzer.id)
      .executeTakeFirstOrThrow();
    const bodies = davBodies([`${dav.home}todos/a.ics`, 'http://[::1', `${dav.home}todos/%00`]);
    const problems: string[] = [];
    for (const method of methods) {
      const list = bodies[method];
      if (!list) {
        problems.push(`${method}: no CalDAV bodies to fuzz it with (test/caldav.ts)`);
        continue;
      }
      const ownerBefore = await snapshotUser(db, owner.id);
      const result = await fc.check(
        fc.asyncProperty(davCaseArb(dav, method, `group-${group.id}`, list), async (c) => {
          totalCases += 1;
          const before = await tableCounts(db);
          const response = await send(method, c.path, c.body, c.headers);
          const status = response.statusCode;
          statusCounts.set(status, (statusCounts.get(status) ?? 0) + 1);
          if (status >= 500) throw new Error(`${status} ${response.body}`);
          if (status >= 400) expect(await tableCounts(db)).toBe(before);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      if (result.failed) {
        problems.push(
          `${method}: ${String(result.errorInstance)} for ${JSON.stringify(result.counterexample)}`.slice(
            0,
            1500,
          ),
        );
      }
      if ((await snapshotUser(db, owner.id)) !== ownerBefore) {
        problems.push(`${method}: changed the other user's rows`);
      }
      const broken = await invariantViolations(db);
      if (broken.length) problems.push(`${method}: ${broken.join(', ')}`);
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
