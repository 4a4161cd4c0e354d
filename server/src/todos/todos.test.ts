import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fastJsonStringify from 'fast-json-stringify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext, type TestUser } from '../test/helpers.js';
import {
  type CreateTodoBody,
  defaultTodo,
  groupsApi,
  statisticsApi,
  TodoListSchema,
  todosApi,
  type UpdateTodoBody,
} from '@tally/contract';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  alice = await registerUser(ctx.app);
  bob = await registerUser(ctx.app);
});
afterAll(async () => ctx.close());

/** The calls as the contract describes them (test/api-client.ts). */
const api = (user: TestUser) => apiClient(ctx.app, user);
const createTodo = async (user: TestUser, body: CreateTodoBody) =>
  (await api(user)(todosApi.create, { body })).expectBody(201);
const createGroup = async (user: TestUser, name: string) =>
  (await api(user)(groupsApi.create, { body: { name, color: '#10B981' } })).expectBody(201);
const listTodos = async (user: TestUser) => (await api(user)(todosApi.list)).data();

describe('todos', () => {
  // The list writes its answer with JSON.stringify (shared/endpoint.ts, answerBuiltExactly): what
  // it sends must be what the contract's schema lets out, field for field, in every branch.
  it('lists exactly the fields the contract describes, as its schema would write them', async () => {
    const user = await registerUser(ctx.app);
    const group = await createGroup(user, 'Errands');
    const parent = await createTodo(user, {
      title: 'Say "hi"\n\u2028 to 🦊 <b>&</b>',
      description: 'back\\slash\ttab',
      groupId: group.id,
      dueDate: '2026-11-25',
      dueTime: '09:30',
      repeat: { every: 2, unit: 'week', from: 'due' },
      remindMinutesBefore: 15,
      tags: ['Work', 'été'],
      priority: 3,
    });
    await createTodo(user, { title: 'A step', parentId: parent.id, startDate: '2026-11-20' });
    await createTodo(user, { title: 'Plain' });
    const written = fastJsonStringify(TodoListSchema);
    for (const query of [
      {},
      { view: 'today' as const },
      { q: 'step' },
      { limit: 2 },
      { sort: 'priority' as const },
    ]) {
      const answer = await api(user)(todosApi.list, { query });
      const todos: unknown = JSON.parse(answer.body);
      expect(JSON.parse(written(todos)), JSON.stringify(query)).toEqual(todos);
    }
    expect((await listTodos(user)).find((todo) => todo.id === parent.id)).toMatchObject({
      title: 'Say "hi"\n\u2028 to 🦊 <b>&</b>',
      tags: ['Work', 'été'],
      repeat: { every: 2, unit: 'week', from: 'due' },
    });
  });

  it('creates a todo with trimmed text, ungrouped by default, and answers 201', async () => {
    const todo = await createTodo(alice, { title: '  Buy milk  ', description: '  two litres ' });
    // Every other field at its default (no planning, no tags, top level, newest first), version 1.
    expect(todo).toEqual(
      defaultTodo({
        id: expect.any(Number) as number,
        title: 'Buy milk',
        description: 'two litres',
        created: new Date(ctx.clock.now()).toISOString(),
      }),
    );
    expect(
      (await createTodo(alice, { title: 'No description', description: '   ' })).description,
    ).toBeNull();
  });

  it('lists only the caller’s todos, newest first', async () => {
    const user = await registerUser(ctx.app);
    for (const title of ['first', 'second', 'third']) {
      await createTodo(user, { title });
      ctx.clock.advance(1000);
    }
    expect((await listTodos(user)).map((t) => t.title)).toEqual(['third', 'second', 'first']);
  });

  it('replaces a todo with PUT and counts a completion only on the transition, withdrawn by a reopen', async () => {
    const user = await registerUser(ctx.app);
    const group = await createGroup(user, 'Home');
    const todo = await createTodo(user, { title: 'Water plants' });
    const put = async (body: UpdateTodoBody) =>
      await api(user)(todosApi.update, { params: { id: todo.id }, body });
    const done = await put({
      title: 'Water the plants',
      description: 'all',
      groupId: group.id,
      completed: true,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      id: todo.id,
      title: 'Water the plants',
      groupId: group.id,
      completed: true,
    });
    await put({ title: 'Water the plants', completed: true });
    const again = await put({ title: 'Water the plants', completed: false });
    expect(again.json()).toMatchObject({ completed: false, groupId: null, description: null });
    const totals = (await api(user)(statisticsApi.total)).data();
    // Reopened, it did not stay done: its completion is withdrawn.
    expect(totals).toMatchObject({ todosCreated: 1, todosUpdated: 3, todosCompleted: 0 });
  });

  it('changes only the fields a PATCH names; the others keep the latest values', async () => {
    const group = await createGroup(alice, 'Patch group');
    const todo = await createTodo(alice, {
      title: 'Draft',
      description: 'notes',
      groupId: group.id,
    });
    // Another device renames it; this one, unaware, only completes it.
    const params = { id: todo.id };
    await api(alice)(todosApi.update, {
      params,
      body: { title: 'Renamed', description: 'notes', groupId: group.id, completed: false },
    });
    const patched = await api(alice)(todosApi.patch, { params, body: { completed: true } });
    expect(patched.expectBody(200)).toMatchObject({
      title: 'Renamed',
      description: 'notes',
      groupId: group.id,
      completed: true,
    });
    const cleared = await api(alice)(todosApi.patch, { params, body: { groupId: null } });
    expect(cleared.data()).toMatchObject({
      title: 'Renamed',
      groupId: null,
      completed: true,
    });
    const empty = await api(alice)(todosApi.patch, { params, body: { title: '  ' } });
    expect(empty.statusCode).toBe(400);
    const missing = await api(bob)(todosApi.patch, { params, body: { completed: false } });
    expect(missing.statusCode).toBe(404);
  });

  it('deletes with 204 and then answers 404', async () => {
    const todo = await createTodo(alice, { title: 'Temporary' });
    const remove = () => api(alice)(todosApi.remove, { params: { id: todo.id } });
    const first = await remove();
    expect(first.statusCode).toBe(204);
    expect(first.body).toBe('');
    expect((await remove()).statusCode).toBe(404);
    expect((await listTodos(alice)).some((t) => t.id === todo.id)).toBe(false);
  });

  it('keeps a todo in a deleted group, ungrouped', async () => {
    const group = await createGroup(alice, 'Short-lived');
    const todo = await createTodo(alice, { title: 'Survivor', groupId: group.id });
    const removed = await api(alice)(groupsApi.remove, { params: { id: group.id } });
    expect(removed.statusCode).toBe(204);
    expect((await listTodos(alice)).find((t) => t.id === todo.id)?.groupId).toBeNull();
  });
});

describe('a long list', () => {
  it('comes compressed to a client that accepts brotli or gzip, and plain to one that does not', async () => {
    const user = await registerUser(ctx.app);
    for (let i = 0; i < 40; i++) {
      await createTodo(user, { title: `Todo number ${i}`, description: 'Some words to send' });
    }
    const get = (encoding?: string) =>
      api(user)(todosApi.list, {
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toHaveLength(40);

    const brotli = await get('br, gzip');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['cache-control']).toBe('no-store');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const gzip = await get('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });

  it('leaves a small answer uncompressed', async () => {
    const user = await registerUser(ctx.app);
    const response = await api(user)(todosApi.list, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toEqual([]);
  });
});

describe('todos are private', () => {
  it('gives another user 404 on GET-less routes (PUT, DELETE) and leaves the todo unchanged', async () => {
    const todo = await createTodo(alice, { title: 'Alice only' });
    const params = { id: todo.id };
    const put = await api(bob)(todosApi.update, {
      params,
      body: { title: 'hijacked', completed: true },
    });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toEqual({ error: 'Todo not found', code: 'not_found' });
    expect((await api(bob)(todosApi.remove, { params })).statusCode).toBe(404);
    expect((await listTodos(bob)).some((t) => t.id === todo.id)).toBe(false);
    expect((await listTodos(alice)).find((t) => t.id === todo.id)).toEqual(todo);
  });

  it('refuses to put a todo into another user’s group', async () => {
    const aliceGroup = await createGroup(alice, 'Private');
    const response = await api(bob)(todosApi.create, {
      body: { title: 'sneaky', groupId: aliceGroup.id },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'groupId must be the id of one of your groups',
    });
    const own = await createTodo(bob, { title: 'mine' });
    const update = await api(bob)(todosApi.update, {
      params: { id: own.id },
      body: { title: 'mine', completed: false, groupId: aliceGroup.id },
    });
    expect(update.statusCode).toBe(400);
    expect((await listTodos(bob)).some((t) => t.title === 'sneaky')).toBe(false);
  });
});

describe('bad input', () => {
  // Bodies the contract refuses, so sent unchecked.
  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    api(alice).unchecked(todosApi.create, {
      body: typeof payload === 'string' ? payload : JSON.stringify(payload),
      headers: { 'content-type': 'application/json', ...headers },
    });

  it.each([
    [{}, 400, 'title is required'],
    [{ title: '' }, 400, 'title must not be empty'],
    [{ title: '   ' }, 400, 'title must not be empty'],
    [{ title: 'x'.repeat(201) }, 400, 'title must be at most 200 characters'],
    [{ title: 42 }, 400, 'title must be of type string'],
    // Markdown notes (decision 084) raised the description's limit from 2,000 to 20,000
    // characters.
    [{ title: 'ok', description: 'x'.repeat(20_001) }, 400, 'description must be at most 20000'],
    [{ title: 'ok', groupId: 'one' }, 400, 'groupId'],
    [{ title: 'ok', completed: true }, 400, 'unknown field "completed"'],
    [{ title: 'ok', id: 5 }, 400, 'unknown field "id"'],
    [{ title: 'nul\u0000byte' }, 400, 'title must not contain NUL'],
    [[], 400, 'must be a JSON object'],
    ['{"title": ', 400, 'not valid JSON'],
  ])('%j → %i naming the problem', async (payload, status, message) => {
    const before = (await listTodos(alice)).length;
    const response = await post(payload);
    expect(response.statusCode).toBe(status);
    expect(response.json<{ error: string }>().error).toContain(message);
    expect((await listTodos(alice)).length).toBe(before);
  });

  it('answers 413 for a body over 64 KiB and 415 for a non-JSON body', async () => {
    const big = await post({ title: 'x', description: 'y'.repeat(70 * 1024) });
    expect(big.statusCode).toBe(413);
    expect(big.json<{ error: string }>().error).toMatch(/too large/);
    const text = await post('title=x', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({
      error: 'Content-Type must be application/json',
      code: 'unsupported_media_type',
    });
  });

  it('takes a call without a body that still says its content is JSON (many HTTP clients do)', async () => {
    const { id } = await createTodo(alice, { title: 'Goes to the trash' });
    const removed = await api(alice).unchecked(todosApi.remove, {
      params: { id: String(id) },
      headers: { 'content-type': 'application/json' },
    });
    expect(removed.statusCode).toBe(204);
    expect((await listTodos(alice)).some((todo) => todo.id === id)).toBe(false);
    // A call that takes a body still needs one.
    const empty = await post('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ error: string }>().error).toBe('The request body must be a JSON object');
  });

  it('answers 400 for a non-numeric or out-of-range id', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      const response = await api(alice).unchecked(todosApi.remove, { params: { id } });
      expect(response.statusCode, id).toBe(400);
      expect(response.json<{ error: string }>().error).toMatch(/^id /);
    }
  });
});
