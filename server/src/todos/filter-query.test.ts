import { accountApi, groupsApi, todosApi, type Todo } from '@tally/contract';
import { filterTodos, parseFilter } from '@tally/contract/filter-query';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, signInAgain, type TestContext } from '../test/helpers.js';

/**
 * GET /api/todos?filter= on the database of this run (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL): the SQL the server builds answers what the contract's evaluator shows.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

const ZONE = 'Pacific/Auckland';
const headers = { 'x-time-zone': ZONE };
const titles = (todos: readonly Todo[]) => todos.map((todo) => todo.title);

describe('GET /api/todos?filter=', () => {
  it('answers the todos the filter shows, combined with views, paging and sorts', async () => {
    const call = apiClient(ctx.app, await registerUser(ctx.app));
    await call(accountApi.setPreferences, { body: { timeZone: ZONE } });
    const work = (
      await call(groupsApi.create, { body: { name: 'Work', color: '#3B82F6' } })
    ).data();
    // 2026-03-10T12:00Z is 11 March 01:00 in Auckland.
    const make = async (title: string, fields: object) => {
      ctx.clock.advance(1000);
      return (await call(todosApi.create, { body: { title, ...fields }, headers })).data();
    };
    await make('Report', { groupId: work.id, dueDate: '2026-03-11', priority: 3, tags: ['Desk'] });
    await make('Call', { groupId: work.id, dueDate: '2026-03-20', priority: 1 });
    await make('Milk', { tags: ['errand'] });
    const done = await make('Old report', { groupId: work.id, dueDate: '2026-03-11' });
    await call(todosApi.patch, { params: { id: done.id }, body: { completed: true }, headers });

    const list = async (query: Record<string, string | number>) => {
      const answer = await call(todosApi.list, { query: query as never, headers });
      expect(answer.statusCode, answer.body).toBe(200);
      return titles(answer.data());
    };
    expect(await list({ filter: '#work & p1' })).toEqual(['Report']);
    expect(await list({ filter: 'today' })).toEqual(['Report']);
    expect(await list({ filter: '#Work & completed' })).toEqual(['Old report']);
    expect(await list({ filter: 'next 14 days', sort: 'due' })).toEqual(['Report', 'Call']);
    expect(await list({ filter: '#Work', view: 'upcoming' })).toEqual(['Report']);
    expect(await list({ filter: '@errand | @desk', tag: 'desk' })).toEqual(['Report']);
    expect(await list({ filter: 'no date, #Work' })).toEqual(['Milk', 'Call', 'Report']);

    const first = await call(todosApi.list, { query: { filter: '!no date', limit: 1 }, headers });
    expect(titles(first.data())).toEqual(['Call']);
    const cursor = first.headers['x-next-cursor'] as string;
    const second = await call(todosApi.list, {
      query: { filter: '!no date', limit: 1, cursor },
      headers,
    });
    expect(titles(second.data())).toEqual(['Report']);
    expect(second.headers['x-next-cursor']).toBeUndefined();
  });

  it("reads dates in the account's time zone (UTC until set), whatever the request's", async () => {
    const call = apiClient(ctx.app, await registerUser(ctx.app));
    ctx.clock.set('2026-03-10T12:00:00Z');
    await call(todosApi.create, { body: { title: 'Auckland day', dueDate: '2026-03-11' } });
    const today = async (query: Record<string, string> = {}) =>
      titles((await call(todosApi.list, { query: { filter: 'today' }, headers: query })).data());
    expect(await today(headers)).toEqual([]);
    await call(accountApi.setPreferences, { body: { timeZone: ZONE } });
    expect(await today()).toEqual(['Auckland day']);
    expect(await today({ 'x-time-zone': 'UTC' })).toEqual(['Auckland day']);
  });

  it('refuses a query it cannot read with a 400 naming filter and the place', async () => {
    const call = apiClient(ctx.app, await registerUser(ctx.app));
    for (const [filter, error] of [
      ['today & due befor: Dec 1', 'filter: `due befor:` at 9: did you mean `due before:`?'],
      ['#Nowhere', 'filter: `#Nowhere` at 1: no such group'],
      ['(today', 'filter: `(` at 1: this ( is never closed'],
      ['today &', 'filter: `&` at 7: something to match follows it'],
    ]) {
      const answer = await call.unchecked(todosApi.list, { query: { filter } });
      expect(answer.statusCode, filter).toBe(400);
      expect(answer.json()).toEqual({ error });
    }
    const withQ = await call.unchecked(todosApi.list, { query: { filter: 'today', q: 'x' } });
    expect(withQ.json()).toEqual({ error: 'filter cannot be combined with q (use search:)' });
    const pagedLists = await call.unchecked(todosApi.list, {
      query: { filter: 'p1, p2', limit: 5 },
    });
    expect(pagedLists.json()).toEqual({
      error: 'filter with several lists (,) cannot be paged',
    });
    const empty = await call.unchecked(todosApi.list, { query: { filter: '' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ error: string }>().error).toMatch(/filter/);
  });
});

// ---------------------------------------------------------------------------------------------
// The property: random todos, random queries, the server's answer equals the evaluator's.

const CASES = Number(process.env.FILTER_PROPERTY_CASES ?? 2000);
const SEED = Number(process.env.FILTER_PROPERTY_SEED ?? 20261129);

const dates = ['2026-03-05', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-17', '2026-04-01'];
const dateWords = [
  ...dates,
  'Mar 11',
  '12 March',
  'today',
  'tomorrow',
  'yesterday',
  'in 3 days',
  'next monday',
  'friday',
  '2 weeks ago',
];
const WORDS = ['milk', 'report', 'café', 'call', 'plan'];
const TAGS = ['Errand', 'desk', 'home'];

const termArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'today',
    'tomorrow',
    'overdue',
    'no date',
    '#Work',
    '#home',
    '@errand',
    '@DESK',
    '@none',
    'p1',
    'p2',
    'p3',
    'p4',
    'no priority',
    'recurring',
    'subtask',
    'no tags',
    'completed',
  ),
  fc.constantFrom('next 3 days', 'next 7 days', '30 days'),
  fc
    .tuple(
      fc.constantFrom(
        'due before:',
        'due after:',
        'due:',
        'created before:',
        'created after:',
        'start before:',
        'start after:',
      ),
      fc.constantFrom(...dateWords),
    )
    .map(([key, date]) => `${key} ${date}`),
  fc.constantFrom(...WORDS, 'cafe', 'mil', 'ERR').map((word) => `search: ${word}`),
);

const { expression } = fc.letrec<{ expression: string }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    termArb,
    tie('expression').map((inner) => `!${inner}`),
    tie('expression').map((inner) => `(${inner})`),
    fc
      .tuple(tie('expression'), fc.constantFrom(' & ', ' | ', '&', '|'), tie('expression'))
      .map(([left, operator, right]) => `${left}${operator}${right}`),
  ),
}));
const queryArb = fc
  .array(expression, { minLength: 1, maxLength: 3 })
  .map((lists) => lists.join(', '));

const todoArb = fc.record({
  title: fc.constantFrom(...WORDS).map((word) => `${word[0]?.toUpperCase()}${word.slice(1)} it`),
  description: fc.option(fc.constantFrom(...WORDS), { nil: null }),
  group: fc.constantFrom('Work', 'Home', null),
  dueDate: fc.option(fc.constantFrom(...dates), { nil: null }),
  dueTime: fc.option(fc.constantFrom('00:30', '01:00', '09:00', '23:00'), { nil: null }),
  repeat: fc.boolean(),
  tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 2 }),
  priority: fc.constantFrom(0, 1, 2, 3),
  subtask: fc.boolean(),
  startDate: fc.option(fc.constantFrom(...dates), { nil: null }),
  completed: fc.boolean(),
  age: fc.integer({ min: 0, max: 40 * 24 }),
});

describe('filters on the server and in the evaluator', () => {
  it(`answer the same todos for ${CASES} random queries`, { timeout: 600_000 }, async () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    // Registered before the oldest todo; signed in again as the clock moves on.
    ctx.clock.set(new Date(now - 41 * 86_400_000).toISOString());
    let user = await registerUser(ctx.app);
    let call = apiClient(ctx.app, user);
    await call(accountApi.setPreferences, { body: { timeZone: ZONE } });
    const groups = [];
    for (const name of ['Work', 'Home']) {
      groups.push((await call(groupsApi.create, { body: { name, color: '#3B82F6' } })).data());
    }
    const specs =
      fc.sample(fc.array(todoArb, { minLength: 60, maxLength: 60 }), {
        numRuns: 1,
        seed: SEED,
      })[0] ?? [];
    let parentId: number | undefined;
    // Oldest first, so the created times spread over the forty days before now.
    for (const spec of [...specs].sort((a, b) => b.age - a.age)) {
      ctx.clock.set(new Date(now - spec.age * 3_600_000).toISOString());
      user = await signInAgain(ctx.app, user);
      call = apiClient(ctx.app, user);
      const todo = (
        await call(todosApi.create, {
          headers,
          body: {
            title: spec.title,
            description: spec.description,
            groupId: groups.find((group) => group.name === spec.group)?.id ?? null,
            dueDate: spec.dueDate,
            dueTime: spec.dueDate ? spec.dueTime : null,
            repeat: spec.repeat && spec.dueDate ? { every: 1, unit: 'week', from: 'due' } : null,
            tags: spec.tags,
            priority: spec.priority as 0 | 1 | 2 | 3,
            startDate: spec.startDate,
            ...(spec.subtask && parentId ? { parentId } : {}),
          },
        })
      ).data();
      parentId ??= todo.id;
      if (spec.completed && !todo.repeat) {
        await call(todosApi.patch, { params: { id: todo.id }, body: { completed: true }, headers });
      }
    }
    ctx.clock.set(new Date(now).toISOString());
    user = await signInAgain(ctx.app, user);
    call = apiClient(ctx.app, user);
    const all = (await call(todosApi.list, { headers })).data();
    expect(all).toHaveLength(60);

    const context = {
      // 2026-03-10T12:00Z in Auckland (UTC+13 in March).
      today: '2026-03-11',
      time: '01:00',
      timeZone: ZONE,
      groups,
    };
    let matched = 0;
    await fc.assert(
      fc.asyncProperty(queryArb, async (filter) => {
        const expected = filterTodos(parseFilter(filter, context), all).map((todo) => todo.id);
        const answer = await call(todosApi.list, { query: { filter }, headers });
        expect(answer.statusCode, answer.body).toBe(200);
        expect(
          answer.data().map((todo) => todo.id),
          filter,
        ).toEqual(expected);
        if (expected.length > 0) matched += 1;
      }),
      { numRuns: CASES, seed: SEED },
    );
    // The queries are not all empty answers, or the property would say little.
    expect(matched).toBeGreaterThan(CASES / 4);
  });
});
