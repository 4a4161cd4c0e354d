import { readFileSync } from 'node:fs';
import { authApi, groupsApi, LIMITS, todosApi, type Endpoint } from '@tally/contract';
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
      expect(Object.keys(answer)).toEqual(['error']);
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
    });
    const bytes = await call(todosApi.create, {
      body: Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      headers: { 'content-type': 'application/json' },
    });
    expect(bytes.json()).toEqual({ error: 'The request body is not valid UTF-8' });
  });
});
