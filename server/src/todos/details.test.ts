import { tagsApi, type Todo, todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TodosClient, todosClient } from '../test/todos-client.js';
import {
  createTestApp,
  registerUser,
  signInAgain,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';

/**
 * The task model's todo fields through the API (decision 083): tags, priority, start date, the
 * list's filters and sorts, the manual order (move) and the sort kept per view.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

/** The todo calls through the contract (test/todos-client.ts). */
const client = (user: TestUser, zone = 'UTC') => todosClient(ctx.app, user, zone);

const titles = (todos: Todo[]) => todos.map((todo) => todo.title);

describe('tags', () => {
  it('are saved and answered A-Z; a name in another case is the same tag, first spelling kept', async () => {
    const api = client(await registerUser(ctx.app));
    const first = await api.made({ title: 'Call mum', tags: ['Family', 'phone'] });
    expect(first.tags).toEqual(['Family', 'phone']);
    const second = await api.made({ title: 'Plan trip', tags: ['family', 'FAMILY', 'travel'] });
    expect(second.tags).toEqual(['Family', 'travel']);
    expect(await api.tags()).toEqual([
      { name: 'Family', color: null, count: 2 },
      { name: 'phone', color: null, count: 1 },
      { name: 'travel', color: null, count: 1 },
    ]);
    expect((await api.list()).map((todo) => todo.tags)).toEqual([
      ['Family', 'travel'],
      ['Family', 'phone'],
    ]);
  });

  it('stay when a PUT or PATCH omits them, are replaced when given, and [] clears', async () => {
    const api = client(await registerUser(ctx.app));
    const todo = await api.made({ title: 'Read', tags: ['books'], priority: 2 });
    // A client that knows only the original API sends only its fields.
    const spec = await api.put(todo.id, {
      title: 'Read more',
      description: null,
      groupId: null,
      completed: false,
    });
    expect(spec.statusCode).toBe(200);
    expect(spec.json()).toMatchObject({ title: 'Read more', tags: ['books'], priority: 2 });
    expect((await api.patch(todo.id, { tags: ['novels', 'evening'] })).json()).toMatchObject({
      tags: ['evening', 'novels'],
      priority: 2,
    });
    expect((await api.patch(todo.id, { tags: [] })).json()).toMatchObject({ tags: [] });
  });

  it.each([
    [{ tags: ['two words'] }, 'tags'],
    [{ tags: ['a,b'] }, 'tags'],
    [{ tags: [''] }, 'tags'],
    [{ tags: ['x'.repeat(31)] }, 'tags'],
    [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
    [{ tags: 'work' }, 'tags'],
    [{ priority: 4 }, 'priority'],
    [{ priority: '3' }, 'priority'],
    [{ startDate: '2026-02-30' }, 'startDate must be a real calendar date'],
    [{ startDate: 'tomorrow' }, 'startDate'],
    [{ parentId: 'one' }, 'parentId'],
  ])('refuse %j with a 400 naming the field, writing nothing', async (fields, message) => {
    const api = client(await registerUser(ctx.app));
    const response = await api.call.unchecked(todosApi.create, { body: { title: 'x', ...fields } });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toContain(message);
    expect(await api.list()).toEqual([]);
    expect(await api.tags()).toEqual([]);
  });

  it('filter the list with ?tag= in any case, paged or not, combined with ?priority=', async () => {
    const api = client(await registerUser(ctx.app));
    await api.made({ title: 'a', tags: ['Work'], priority: 3 });
    await api.made({ title: 'b', tags: ['home'] });
    await api.made({ title: 'c', tags: ['work', 'home'], priority: 1 });
    expect(titles(await api.list({ tag: 'WORK' }))).toEqual(['c', 'a']);
    expect(titles(await api.list({ tag: 'work', priority: 3 }))).toEqual(['a']);
    expect(titles(await api.list({ priority: 0 }))).toEqual(['b']);
    expect(titles(await api.list({ tag: 'nothing' }))).toEqual([]);
    const page = await api.get({ tag: 'work', limit: 1 });
    expect(titles(page.json())).toEqual(['c']);
    const next = page.headers['x-next-cursor'];
    expect(typeof next).toBe('string');
    expect(titles(await api.list({ tag: 'work', limit: 1, cursor: String(next) }))).toEqual(['a']);
    expect(titles(await api.list({ q: 'c', tag: 'home' }))).toEqual(['c']);
    const bad = await api.get({ tag: 'a b' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toContain('tag');
    const badPriority = await api.get({ priority: 5 });
    expect(badPriority.statusCode).toBe(400);
    expect(badPriority.json<{ error: string }>().error).toContain('priority');
  });
});

describe('priority and sorting', () => {
  it('sorts by created (the default), due, priority, title and manual', async () => {
    ctx.clock.set('2026-11-20T10:00:00Z');
    const api = client(await registerUser(ctx.app));
    await api.made({ title: 'banana', priority: 1, dueDate: '2026-12-05' });
    ctx.clock.advance(1000);
    await api.made({ title: 'Apple', priority: 3 });
    ctx.clock.advance(1000);
    await api.made({ title: 'cherry', dueDate: '2026-12-01', dueTime: '09:00' });
    ctx.clock.advance(1000);
    await api.made({ title: 'date', priority: 3, dueDate: '2026-12-01' });
    expect(titles(await api.list())).toEqual(['date', 'cherry', 'Apple', 'banana']);
    expect(titles(await api.list({ sort: 'created' }))).toEqual([
      'date',
      'cherry',
      'Apple',
      'banana',
    ]);
    expect(titles(await api.list({ sort: 'due' }))).toEqual(['date', 'cherry', 'banana', 'Apple']);
    expect(titles(await api.list({ sort: 'priority' }))).toEqual([
      'date',
      'Apple',
      'banana',
      'cherry',
    ]);
    expect(titles(await api.list({ sort: 'title' }))).toEqual([
      'Apple',
      'banana',
      'cherry',
      'date',
    ]);
    expect(titles(await api.list({ sort: 'manual' }))).toEqual([
      'date',
      'cherry',
      'Apple',
      'banana',
    ]);
  });

  it('refuses an unknown sort, and a sort other than created with paging or search', async () => {
    const api = client(await registerUser(ctx.app));
    for (const query of [
      { sort: 'size' },
      { sort: 'title', limit: 5 },
      { sort: 'due', q: 'milk' },
    ]) {
      const response = await api.get(query);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: string }>().error).toContain('sort');
    }
    expect((await api.get({ sort: 'created', limit: 5 })).statusCode).toBe(200);
  });

  it('keeps the sort chosen per view on the server, for every device', async () => {
    const api = client(await registerUser(ctx.app));
    expect(await api.sorts()).toEqual({});
    const set = await api.setSort({ view: 'all', sort: 'manual' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ all: 'manual' });
    await api.setSort({ view: 'group-4', sort: 'due' });
    await api.setSort({ view: 'all', sort: 'title' });
    expect(await api.sorts()).toEqual({ all: 'title', 'group-4': 'due' });
    const other = client(await registerUser(ctx.app));
    expect(await other.sorts()).toEqual({});
    for (const [payload, field] of [
      [{ view: 'all', sort: 'size' }, 'sort'],
      [{ view: 'All Todos', sort: 'due' }, 'view'],
      [{ sort: 'due' }, 'view'],
    ] as const) {
      const response = await api.call.unchecked(todosApi.setSort, { body: payload });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: string }>().error).toContain(field);
    }
  });
});

describe('start dates', () => {
  it('keep a todo out of Today and Upcoming until the day, but in the plain list', async () => {
    ctx.clock.set('2026-11-23T10:00:00Z');
    const user = await registerUser(ctx.app);
    const api = client(user);
    await api.made({ title: 'later', dueDate: '2026-11-23', startDate: '2026-11-25' });
    await api.made({ title: 'started', dueDate: '2026-11-24', startDate: '2026-11-23' });
    await api.made({ title: 'plain', dueDate: '2026-11-23' });
    expect(titles(await api.list({ view: 'today' }))).toEqual(['plain']);
    expect(titles(await api.list({ view: 'upcoming' }))).toEqual(['plain', 'started']);
    expect(titles(await api.list({ view: 'today', limit: 10 }))).toEqual(['plain']);
    expect(titles(await api.list({ view: 'upcoming', limit: 10 }))).toEqual(['plain', 'started']);
    expect(titles(await api.list())).toEqual(['plain', 'started', 'later']);
    ctx.clock.set('2026-11-25T10:00:00Z');
    const later = client(await signInAgain(ctx.app, user));
    expect(titles(await later.list({ view: 'today' }))).toEqual(['later', 'plain', 'started']);
  });

  it('stays when a PUT omits it and clears with null', async () => {
    const api = client(await registerUser(ctx.app));
    const todo = await api.made({ title: 't', startDate: '2026-12-24' });
    expect(todo.startDate).toBe('2026-12-24');
    const put = await api.put(todo.id, { title: 't', completed: false });
    expect(put.json()).toMatchObject({ startDate: '2026-12-24' });
    expect((await api.patch(todo.id, { startDate: null })).json()).toMatchObject({
      startDate: null,
    });
  });
});

describe('manual order', () => {
  it('moves a todo before or after a sibling, kept for every client', async () => {
    const user = await registerUser(ctx.app);
    const api = client(user);
    const [a, b, c] = [
      await api.made({ title: 'a' }),
      await api.made({ title: 'b' }),
      await api.made({ title: 'c' }),
    ];
    if (!a || !b || !c) throw new Error('not made');
    expect(titles(await api.list({ sort: 'manual' }))).toEqual(['c', 'b', 'a']);
    const moved = await api.move(a.id, { beforeId: c.id });
    expect(moved.statusCode).toBe(200);
    expect(moved.json<Todo>().position).toBeLessThan(c.position);
    expect(titles(await api.list({ sort: 'manual' }))).toEqual(['a', 'c', 'b']);
    expect((await api.move(a.id, { afterId: b.id })).statusCode).toBe(200);
    expect(titles(await api.list({ sort: 'manual' }))).toEqual(['c', 'b', 'a']);
    expect((await api.move(c.id, { afterId: b.id })).statusCode).toBe(200);
    // Another device (a new sign-in) sees the same order.
    const other = client(await signInAgain(ctx.app, user));
    expect(titles(await other.list({ sort: 'manual' }))).toEqual(['b', 'c', 'a']);
  });

  it('keeps moving into the same gap many times (the siblings are numbered anew when full)', async () => {
    const api = client(await registerUser(ctx.app));
    const a = await api.made({ title: 'a' });
    const b = await api.made({ title: 'b' });
    const c = await api.made({ title: 'c' });
    // Alternately dropping the outer two between each other halves the gap every time.
    for (let i = 0; i < 70; i += 1) {
      const [moving, ref] = i % 2 === 0 ? [a, b] : [c, a];
      expect((await api.move(moving.id, { afterId: ref.id })).statusCode).toBe(200);
    }
    const order = titles(await api.list({ sort: 'manual' }));
    expect(order).toHaveLength(3);
    expect(new Set(order)).toEqual(new Set(['a', 'b', 'c']));
    expect((await api.move(a.id, { beforeId: b.id })).statusCode).toBe(200);
    expect((await api.move(c.id, { afterId: b.id })).statusCode).toBe(200);
    expect(titles(await api.list({ sort: 'manual' }))).toEqual(['a', 'b', 'c']);
  });

  it('answers 400 naming the field and 404 for a todo that is not the caller’s', async () => {
    const api = client(await registerUser(ctx.app));
    const a = await api.made({ title: 'a' });
    const b = await api.made({ title: 'b' });
    const child = await api.made({ title: 'child', parentId: a.id });
    const others = client(await registerUser(ctx.app));
    const theirs = await others.made({ title: 'theirs' });
    const cases: [number, object, number, string][] = [
      [a.id, {}, 400, 'beforeId'],
      [a.id, { beforeId: b.id, afterId: b.id }, 400, 'beforeId'],
      [a.id, { beforeId: a.id }, 400, 'beforeId cannot be the todo itself'],
      [child.id, { afterId: b.id }, 400, 'afterId must be a todo with the same parent'],
      [a.id, { beforeId: 'b' }, 400, 'beforeId'],
      [a.id, { beforeId: theirs.id }, 404, 'Todo not found'],
      [theirs.id, { beforeId: a.id }, 404, 'Todo not found'],
    ];
    for (const [id, payload, status, message] of cases) {
      const response = await api.move(id, payload);
      expect(response.statusCode).toBe(status);
      expect(response.json<{ error: string }>().error).toContain(message);
    }
  });
});

describe('bulk: tags, priority and parent', () => {
  const bulk = (api: TodosClient, payload: object) =>
    api.call.unchecked(todosApi.bulk, { body: payload });

  it('adds and removes a tag, sets a priority and moves under a parent', async () => {
    const api = client(await registerUser(ctx.app));
    const a = await api.made({ title: 'a', tags: ['keep'] });
    const b = await api.made({ title: 'b', tags: ['Work'] });
    const parent = await api.made({ title: 'parent' });
    const tagged = await bulk(api, { ids: [a.id, b.id], action: 'tag', tag: 'work' });
    expect(tagged.statusCode).toBe(200);
    expect(tagged.json<Todo[]>().map((todo) => todo.tags)).toEqual([['Work'], ['keep', 'Work']]);
    const untagged = await bulk(api, { ids: [a.id], action: 'untag', tag: 'WORK' });
    expect(untagged.json<Todo[]>().map((todo) => todo.tags)).toEqual([['keep']]);
    const prioritised = await bulk(api, { ids: [a.id, b.id], action: 'priority', priority: 2 });
    expect(prioritised.json<Todo[]>().map((todo) => todo.priority)).toEqual([2, 2]);
    const moved = await bulk(api, { ids: [a.id, b.id], action: 'parent', parentId: parent.id });
    expect(moved.json<Todo[]>().map((todo) => todo.parentId)).toEqual([parent.id, parent.id]);
    const back = await bulk(api, { ids: [a.id], action: 'parent', parentId: null });
    expect(back.json<Todo[]>().map((todo) => todo.parentId)).toEqual([null]);
  });

  it('answers 400 naming the field, 404 for a parent that is not the caller’s', async () => {
    const api = client(await registerUser(ctx.app));
    const a = await api.made({ title: 'a' });
    const child = await api.made({ title: 'child', parentId: a.id });
    const theirs = await client(await registerUser(ctx.app)).made({ title: 'theirs' });
    const cases: [object, number, string][] = [
      [{ ids: [a.id], action: 'tag' }, 400, 'tag is required for the tag action'],
      [{ ids: [a.id], action: 'priority' }, 400, 'priority is required for the priority action'],
      [{ ids: [a.id], action: 'parent' }, 400, 'parentId is required for the parent action'],
      [{ ids: [a.id], action: 'complete', tag: 'x' }, 400, 'tag is not for the complete action'],
      [{ ids: [a.id], action: 'tag', tag: 'two words' }, 400, 'tag'],
      [{ ids: [a.id], action: 'priority', priority: 7 }, 400, 'priority'],
      [{ ids: [a.id], action: 'parent', parentId: child.id }, 400, 'parentId'],
      [{ ids: [a.id], action: 'parent', parentId: theirs.id }, 404, 'Parent todo not found'],
      [{ ids: [theirs.id], action: 'priority', priority: 1 }, 404, 'Todo not found'],
    ];
    for (const [payload, status, message] of cases) {
      const response = await bulk(api, payload);
      expect(response.statusCode).toBe(status);
      expect(response.json<{ error: string }>().error).toContain(message);
    }
    expect((await api.list()).map((todo) => [todo.priority, todo.parentId])).toEqual([
      [0, a.id],
      [0, null],
    ]);
  });

  it('adds a tag to all or none: 400 naming tags when a todo has 20 already', async () => {
    const api = client(await registerUser(ctx.app));
    const twenty = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const full = await api.made({ title: 'full', tags: twenty });
    const room = await api.made({ title: 'room' });
    const refused = await bulk(api, { ids: [full.id, room.id], action: 'tag', tag: 'more' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: string }>().error).toBe(
      'tags must have at most 20 items: 1 of the todos has 20 already',
    );
    expect((await api.list()).map((todo) => todo.tags.length)).toEqual([0, 20]);
    // A tag the full todo has already adds nothing to it: allowed.
    const again = await bulk(api, { ids: [full.id, room.id], action: 'tag', tag: 'T3' });
    expect(again.statusCode).toBe(200);
    expect((await api.list()).map((todo) => todo.tags.length)).toEqual([1, 20]);
  });
});

describe('search', () => {
  it('finds a todo by its tags, after a rename too, and no more once the tag goes', async () => {
    const user = await registerUser(ctx.app);
    const api = client(user);
    await api.made({ title: 'Call the bank', tags: ['finance'] });
    await api.made({ title: 'Water plants', description: 'finance? no' });
    expect(titles(await api.list({ q: 'financ' }))).toHaveLength(2);
    const tagged = await api.made({ title: 'Pay rent' });
    await api.patch(tagged.id, { tags: ['Housing'] });
    expect(titles(await api.list({ q: 'housing' }))).toEqual(['Pay rent']);
    await api.call(tagsApi.update, { params: { name: 'housing' }, body: { name: 'home' } });
    expect(titles(await api.list({ q: 'home' }))).toEqual(['Pay rent']);
    expect(titles(await api.list({ q: 'housing' }))).toEqual([]);
    await api.call(tagsApi.remove, { params: { name: 'home' } });
    expect(titles(await api.list({ q: 'home' }))).toEqual([]);
  });
});
