import { readFileSync } from 'node:fs';
import { authApi, ERROR_CODES, groupsApi, LIMITS, todosApi, type Endpoint } from '@tally/contract';
import { cleanDescription } from '@tally/contract/todo-text';
import { DOMParser } from '@xmldom/xmldom';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type UncheckedInput } from '../test/api-client.js';
import {
  createTestApp,
  registerUser,
  type TestContext,
  type TestUser,
  uniqueName,
} from '../test/helpers.js';
import { invariantViolations, tableCounts } from '../test/security.js';
import { type DavCredentials, davCredentials, davSender, davXml } from '../test/caldav.js';
import { isCommonPassword } from '../auth/passwords.js';

/**
 * The classic-payload corpus (payloads.json) against every text field. Accepted text round-trips
 * exactly (after the documented trim) through the answer, the list and the stored row, on SQLite
 * and PostgreSQL; refused text gets a 400 naming the field and changes nothing.
 */

type Repeat = { repeat: string; times: number };
type Generate = {
  prefix?: string;
  open: string;
  close: string;
  middle?: string;
  suffix?: string;
  depth: number;
};
interface Corpus {
  text: { name: string; value: string | Repeat }[];
  rejectedText: { name: string; value: string }[];
  raw: {
    name: string;
    contentType: string;
    text?: string;
    base64?: string;
    generate?: Generate;
    status: number;
  }[];
}

const corpus = JSON.parse(
  readFileSync(new URL('./payloads.json', import.meta.url), 'utf8'),
) as Corpus;
const materialise = (value: string | Repeat) =>
  typeof value === 'string' ? value : value.repeat.repeat(value.times);
const generated = (g: Generate) =>
  `${g.prefix ?? ''}${g.open.repeat(g.depth)}${g.middle ?? ''}${g.close.repeat(g.depth)}${g.suffix ?? ''}`;

const codePoints = (s: string) => [...s].length;
const LONE_SURROGATE = /\p{Surrogate}/u;
const clean = (s: string) => !s.includes('\u0000') && !LONE_SURROGATE.test(s);

interface Field {
  name: string;
  max: number;
  /** What the server stores for an accepted value; undefined when it must refuse it. */
  expect(value: string): string | null | undefined;
  /** Sends the value; returns the status and what the server says it stored. */
  send(value: string): Promise<{ status: number; error?: string; stored?: string | null }>;
  /** The value as read back from the list and from the database row. */
  readBack(): Promise<{ listed: string | null; row: string | null }>;
}

let ctx: TestContext;
let user: TestUser;
let todoId: number;
let groupId: number;
let tried = 0;

beforeAll(async () => {
  ctx = await createTestApp();
  user = await registerUser(ctx.app);
  const call = apiClient(ctx.app, user);
  todoId = (await call(todosApi.create, { body: { title: 'seed' } })).json<{
    id: number;
  }>().id;
  groupId = (await call(groupsApi.create, { body: { name: 'seed', color: '#3B82F6' } })).json<{
    id: number;
  }>().id;
});
afterAll(async () => {
  console.info(`[payloads] ${tried} payload×field requests`);
  await ctx.close();
});

/** Sent as it is: these are the bodies the contract refuses. */
const call = (endpoint: Endpoint, input?: UncheckedInput) =>
  apiClient(ctx.app, user).unchecked(endpoint, input);
const db = () => ctx.database.handle.db;
const result = async (response: Awaited<ReturnType<typeof call>>, key: string) => {
  tried += 1;
  const body = response.json<Record<string, unknown>>();
  return {
    status: response.statusCode,
    ...(typeof body.error === 'string' ? { error: body.error } : {}),
    ...(key in body ? { stored: body[key] as string | null } : {}),
  };
};
const requiredText = (max: number) => (v: string) =>
  clean(v) && v.trim() !== '' && codePoints(v) <= max ? v.trim() : undefined;

const fields: Field[] = [
  {
    name: 'title',
    max: LIMITS.todoTitleMax,
    expect: requiredText(LIMITS.todoTitleMax),
    send: async (title) =>
      result(
        await call(todosApi.update, {
          params: { id: todoId },
          body: { title, description: null, groupId: null, completed: false },
        }),
        'title',
      ),
    readBack: async () => ({
      listed:
        (await call(todosApi.list))
          .json<{ id: number; title: string }[]>()
          .find((t) => t.id === todoId)?.title ?? null,
      row: (
        await db()
          .selectFrom('todos')
          .select('title')
          .where('id', '=', todoId)
          .executeTakeFirstOrThrow()
      ).title,
    }),
  },
  {
    name: 'description',
    max: LIMITS.todoDescriptionMax,
    expect: (v) =>
      clean(v) && codePoints(v) <= LIMITS.todoDescriptionMax ? v.trim() || null : undefined,
    send: async (description) =>
      result(await call(todosApi.create, { body: { title: 'd', description } }), 'description'),
    readBack: async () => {
      const newest = (await call(todosApi.list)).json<
        { id: number; description: string | null }[]
      >()[0];
      const row = await db()
        .selectFrom('todos')
        .select('description')
        .where('id', '=', newest?.id ?? -1)
        .executeTakeFirstOrThrow();
      return { listed: newest?.description ?? null, row: row.description };
    },
  },
  {
    name: 'name',
    max: LIMITS.groupNameMax,
    expect: requiredText(LIMITS.groupNameMax),
    send: async (name) =>
      result(
        await call(groupsApi.update, { params: { id: groupId }, body: { name, color: '#EF4444' } }),
        'name',
      ),
    readBack: async () => ({
      listed:
        (await call(groupsApi.list))
          .json<{ id: number; name: string }[]>()
          .find((g) => g.id === groupId)?.name ?? null,
      row: (
        await db()
          .selectFrom('todo_groups')
          .select('name')
          .where('id', '=', groupId)
          .executeTakeFirstOrThrow()
      ).name,
    }),
  },
];

describe('text payloads in every text field', () => {
  for (const field of fields) {
    it(`${field.name}: accepted text round-trips exactly, refused text is a 400 naming the field`, async () => {
      const problems: string[] = [];
      const cases = [
        ...corpus.text.map((c) => ({ name: c.name, value: materialise(c.value) })),
        ...corpus.rejectedText,
      ];
      for (const { name, value } of cases) {
        const expected = field.expect(value);
        const before = await tableCounts(db());
        const answer = await field.send(value);
        if (expected === undefined) {
          if (answer.status !== 400 || !answer.error?.includes(field.name)) {
            problems.push(
              `${name}: expected 400 naming ${field.name}, got ${JSON.stringify(answer)}`,
            );
          }
          if ((await tableCounts(db())) !== before)
            problems.push(`${name}: a refused write changed rows`);
          continue;
        }
        if (answer.status >= 300 || answer.stored !== expected) {
          problems.push(`${name}: expected it stored, got ${answer.status} ${answer.error ?? ''}`);
          continue;
        }
        const { listed, row } = await field.readBack();
        if (listed !== expected) problems.push(`${name}: listed as ${JSON.stringify(listed)}`);
        if (row !== expected) problems.push(`${name}: stored as ${JSON.stringify(row)}`);
      }
      expect(problems).toEqual([]);
      expect(await invariantViolations(db())).toEqual([]);
    });
  }

  it('password: any accepted password signs in again; NUL and lone surrogates are refused', async () => {
    const problems: string[] = [];
    const cases = [
      ...corpus.text.map((c) => ({ name: c.name, value: materialise(c.value) })),
      ...corpus.rejectedText,
    ];
    for (const { name, value } of cases) {
      const acceptable =
        clean(value) &&
        codePoints(value) >= LIMITS.passwordMin &&
        codePoints(value) <= LIMITS.passwordMax &&
        // The 100,000 most common passwords are refused (auth/passwords.ts).
        !(await isCommonPassword(value));
      const username = uniqueName('pw');
      const registered = await apiClient(ctx.app, null)(authApi.register, {
        body: { username, email: `${username}@example.com`, password: value },
      });
      tried += 1;
      if (!acceptable) {
        if (
          registered.statusCode !== 400 ||
          !registered.json<{ error: string }>().error.includes('password')
        ) {
          problems.push(`${name}: register gave ${registered.statusCode} ${registered.body}`);
        }
        continue;
      }
      if (registered.statusCode !== 201) {
        problems.push(`${name}: register gave ${registered.statusCode} ${registered.body}`);
        continue;
      }
      const login = await apiClient(ctx.app, null)(authApi.login, {
        body: { username, password: value },
      });
      if (login.statusCode !== 200) problems.push(`${name}: login gave ${login.statusCode}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('raw bodies: encodings, prototype keys, nesting, numbers, content types', () => {
  it.each(corpus.raw.map((c) => [c.name, c] as const))('%s', async (_name, payload) => {
    const body = payload.base64
      ? Buffer.from(payload.base64, 'base64')
      : Buffer.from(payload.generate ? generated(payload.generate) : (payload.text ?? ''), 'utf8');
    const before = await tableCounts(db());
    const response = await call(todosApi.create, {
      body,
      headers: { 'content-type': payload.contentType },
    });
    tried += 1;
    expect(response.statusCode).toBe(payload.status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const answer = response.json<Record<string, unknown>>();
    if (payload.status >= 400) {
      // A sentence, and beside it perhaps its code, field and limit (decision 178).
      const extra = new Set(['code', 'field', 'limit']);
      expect(Object.keys(answer).filter((key) => !extra.has(key))).toEqual(['error']);
      if ('code' in answer) expect(ERROR_CODES).toContain(answer.code);
      expect(String(answer.error)).toMatch(/\w{3,}/);
      expect(await tableCounts(db())).toBe(before);
    } else {
      expect(answer.title).toBeTypeOf('string');
    }
    // Nothing was polluted along the way.
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('names the field that holds a lone surrogate, and refuses invalid UTF-8 as such', async () => {
    const surrogate = await call(todosApi.create, {
      body: '{"title":"ok","description":"x\\udc00"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(surrogate.json()).toEqual({
      error: 'description must be valid Unicode text (it holds an unpaired surrogate)',
      code: 'invalid_unicode',
      field: 'description',
    });
    const bytes = await call(todosApi.create, {
      body: Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      headers: { 'content-type': 'application/json' },
    });
    expect(bytes.json()).toEqual({ error: 'The request body is not valid UTF-8' });
  });
});

describe('CalDAV: payloads in VTODO fields and in XML', () => {
  let dav: DavCredentials;
  let send: ReturnType<typeof davSender>;
  beforeAll(async () => {
    dav = await davCredentials(ctx.app, user);
    send = davSender(ctx.app, ctx.clock);
  });
  const put = (name: string, text: string) =>
    send('PUT', `${dav.home}todos/${name}.ics`, text, { authorization: dav.basic });
  const cases = () => [
    ...corpus.text.map((c) => ({ name: c.name, value: materialise(c.value) })),
    ...corpus.rejectedText,
  ];
  /** What a client's SUMMARY or DESCRIPTION reaches the server as: UTF-8, no lone surrogate. */
  const asSent = (value: string) => Buffer.from(value, 'utf8').toString('utf8');
  /** The text of an iCalendar property as a client (ical.js) reads it back. */
  const propertyOf = (data: string, name: string) =>
    new ICAL.Component(ICAL.parse(data) as unknown[])
      .getFirstSubcomponent('vtodo')
      ?.getFirstPropertyValue(name);
  /** As propertyOf, or why a client could not read the object. */
  const readable = (data: string, name: string) => {
    try {
      return propertyOf(data, name);
    } catch (error) {
      return `unreadable: ${String(error)}`;
    }
  };

  it('SUMMARY and DESCRIPTION: accepted text is stored and answered exactly and inert, refused text is a 400 naming the property', async () => {
    const problems: string[] = [];
    for (const [i, { name, value }] of cases().entries()) {
      const vcalendar = new ICAL.Component('vcalendar');
      const vtodo = new ICAL.Component('vtodo');
      vtodo.addPropertyWithValue('uid', `payload-${i}`);
      vtodo.addPropertyWithValue('summary', value);
      vtodo.addPropertyWithValue('description', value);
      vcalendar.addSubcomponent(vtodo);
      const text = asSent(ICAL.stringify(vcalendar.toJSON()));
      let sent: string;
      try {
        sent = String(propertyOf(text, 'summary'));
      } catch {
        // ical.js writes a bare CR as it is, which no client then reads: only no 5xx to check.
        const answer = await put(`payload-${i}`, text);
        if (answer.statusCode >= 500) problems.push(`${name}: ${answer.statusCode}`);
        continue;
      }
      const title = sent.trim() || 'Untitled';
      const refusal = sent.includes('\u0000')
        ? 'SUMMARY'
        : codePoints(title) > LIMITS.todoTitleMax
          ? 'SUMMARY'
          : codePoints(sent) > LIMITS.todoDescriptionMax
            ? 'DESCRIPTION'
            : null;
      const before = await tableCounts(db());
      const answer = await put(`payload-${i}`, text);
      tried += 1;
      if (answer.statusCode >= 500) problems.push(`${name}: ${answer.statusCode}`);
      if (refusal !== null) {
        if (answer.statusCode !== 400 || !answer.body.includes(refusal)) {
          problems.push(`${name}: expected 400 naming ${refusal}, got ${answer.statusCode}`);
        }
        if ((await tableCounts(db())) !== before) problems.push(`${name}: a refusal wrote rows`);
        continue;
      }
      if (answer.statusCode !== 201) {
        problems.push(`${name}: expected 201, got ${answer.statusCode} ${answer.body}`);
        continue;
      }
      const listed = (await call(todosApi.list))
        .json<{ title: string; description: string | null; uid?: string }[]>()
        .find((t) => t.title === title);
      if (!listed) problems.push(`${name}: not listed with its title`);
      else if (listed.description !== cleanDescription(sent)) {
        problems.push(`${name}: description listed as ${JSON.stringify(listed.description)}`);
      }
      const read = await send('GET', `${dav.home}todos/payload-${i}.ics`, undefined, {
        authorization: dav.basic,
      });
      if (readable(read.body, 'summary') !== sent) {
        problems.push(
          `${name}: GET answers SUMMARY ${JSON.stringify(readable(read.body, 'summary'))}`,
        );
      }
      // Inside XML the object is text: read back from the multistatus, it is what was sent.
      const report = await send(
        'REPORT',
        `${dav.home}todos/`,
        davXml.multiget([`${dav.home}todos/payload-${i}.ics`]),
        { authorization: dav.basic },
      );
      const data = new DOMParser()
        .parseFromString(report.body, 'text/xml')
        .getElementsByTagNameNS('urn:ietf:params:xml:ns:caldav', 'calendar-data')[0]?.textContent;
      if (readable(data ?? '', 'description') !== cleanDescription(sent)) {
        problems.push(`${name}: the multiget's calendar-data differs`);
      }
    }
    expect(problems).toEqual([]);
    expect(await invariantViolations(db())).toEqual([]);
  }, 120_000);

  it('displayname: text in XML is stored as the group API would and answered escaped', async () => {
    const problems: string[] = [];
    const escape = (v: string) =>
      v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    await send('MKCALENDAR', `${dav.home}named/`, undefined, { authorization: dav.basic });
    for (const { name, value } of cases()) {
      const before = await tableCounts(db());
      const answer = await send('PROPPATCH', `${dav.home}named/`, davXml.proppatch(escape(value)), {
        authorization: dav.basic,
      });
      tried += 1;
      if (answer.statusCode >= 500) problems.push(`${name}: ${answer.statusCode}`);
      if (answer.statusCode !== 207) {
        // Refused: text XML cannot hold (control characters, NUL), a name the group API
        // refuses, or one another group of the user has (409).
        if (![400, 409].includes(answer.statusCode)) {
          problems.push(`${name}: ${answer.statusCode}`);
        }
        if ((await tableCounts(db())) !== before) problems.push(`${name}: a refusal wrote rows`);
        continue;
      }
      const found = await send('PROPFIND', `${dav.home}named/`, davXml.propfind, {
        authorization: dav.basic,
        depth: '0',
      });
      const shown = new DOMParser()
        .parseFromString(found.body, 'text/xml')
        .getElementsByTagNameNS('DAV:', 'displayname')[0]?.textContent;
      const group = (await call(groupsApi.list))
        .json<{ name: string }[]>()
        .find((g) => g.name === shown);
      // XML reads the text with its line ends normalised and trims nothing; the group trims.
      if (!group) problems.push(`${name}: displayname answered as ${JSON.stringify(shown)}`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('refuses entity and document type attacks in every CalDAV body, resolving nothing', async () => {
    const attacks = [
      `<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>`,
      `<!DOCTYPE d SYSTEM "http://127.0.0.1:9/evil.dtd">`,
      `<!DOCTYPE d [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>`,
      `<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>`,
    ];
    const requests: [string, string, (entity: string) => string][] = [
      ['PROPFIND', dav.home, () => davXml.propfind],
      ['REPORT', `${dav.home}todos/`, () => davXml.query],
      ['MKCALENDAR', `${dav.home}xxe/`, (entity) => davXml.mkcalendar(entity)],
      ['PROPPATCH', `${dav.home}todos/`, (entity) => davXml.proppatch(entity)],
    ];
    const before = await tableCounts(db());
    for (const attack of attacks) {
      for (const [method, url, body] of requests) {
        for (const entity of ['&x;', '&c;', 'plain']) {
          const answer = await send(method, url, `${attack}${body(entity)}`, {
            authorization: dav.basic,
            depth: '0',
          });
          tried += 1;
          expect(answer.statusCode, `${method} ${attack}`).toBe(400);
          expect(answer.body).not.toContain('root:');
          expect(answer.body).not.toContain('aaaaaaaaaa');
        }
      }
    }
    // In a VTODO, entity syntax is text like any other.
    const entityText = '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>&e;';
    const stored = await put(
      'entity',
      ICAL.stringify(
        new ICAL.Component([
          'vcalendar',
          [],
          [
            [
              'vtodo',
              [
                ['uid', {}, 'text', 'entity'],
                ['summary', {}, 'text', entityText],
              ],
              [],
            ],
          ],
        ]).toJSON(),
      ),
    );
    expect(stored.statusCode).toBe(201);
    expect(await tableCounts(db())).not.toBe(before);
    const read = await send('GET', `${dav.home}todos/entity.ics`, undefined, {
      authorization: dav.basic,
    });
    expect(propertyOf(read.body, 'summary')).toBe(entityText);
    expect(read.body).not.toContain('root:');
  });
});
