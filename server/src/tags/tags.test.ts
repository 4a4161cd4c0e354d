import {
  type CreateTodoBody,
  type PatchTodoBody,
  tagsApi,
  type Todo,
  todosApi,
  type UpdateTagBody,
} from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext, type TestUser } from '../test/helpers.js';

/** GET, PUT and DELETE /api/tags (docs/product.md, Tags). */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

/** The calls of these tests, through the contract (test/api-client.ts). */
function client(user: TestUser) {
  const call = apiClient(ctx.app, user);
  return {
    create: async (body: CreateTodoBody) => (await call(todosApi.create, { body })).data(),
    patch: (id: number, body: PatchTodoBody) => call(todosApi.patch, { params: { id }, body }),
    update: async (name: string, body: UpdateTagBody) =>
      await call(tagsApi.update, { params: { name }, body }),
    /** A body the contract refuses, sent as it is. */
    updateRaw: (name: string, payload: object) =>
      call.unchecked(tagsApi.update, { params: { name }, body: payload }),
    remove: async (name: string) => await call(tagsApi.remove, { params: { name } }),
    tags: async () => (await call(tagsApi.list)).data(),
    list: async () => (await call(todosApi.list)).data(),
  };
}

const tagsByTitle = (todos: Todo[]) =>
  Object.fromEntries(todos.map((todo) => [todo.title, todo.tags]));

describe('tags', () => {
  it('list A-Z with the count of open todos, each user their own', async () => {
    const api = client(await registerUser(ctx.app));
    const done = await api.create({ title: 'done', tags: ['work'] });
    await api.patch(done.id, { completed: true });
    await api.create({ title: 'open', tags: ['work', 'Errands'] });
    expect(await api.tags()).toEqual([
      { name: 'Errands', color: null, count: 1 },
      { name: 'work', color: null, count: 1 },
    ]);
    expect(await client(await registerUser(ctx.app)).tags()).toEqual([]);
  });

  it('rename (any case finds the tag) and recolour; null clears the colour', async () => {
    const api = client(await registerUser(ctx.app));
    await api.create({ title: 'a', tags: ['wrk'] });
    const renamed = await api.update('WRK', { name: 'Work', color: '#EF4444' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ name: 'Work', color: '#EF4444', count: 1 });
    expect(tagsByTitle(await api.list())).toEqual({ a: ['Work'] });
    expect((await api.update('work', { color: null })).json()).toEqual({
      name: 'Work',
      color: null,
      count: 1,
    });
    // A new spelling of the same name changes only its case.
    expect((await api.update('work', { name: 'WORK' })).json()).toMatchObject({ name: 'WORK' });
  });

  it('merge into an existing tag, which keeps its spelling and colour', async () => {
    const api = client(await registerUser(ctx.app));
    await api.create({ title: 'a', tags: ['job'] });
    await api.create({ title: 'b', tags: ['job', 'Work'] });
    await api.create({ title: 'c', tags: ['Work'] });
    await api.update('Work', { color: '#10B981' });
    const merged = await api.update('job', { name: 'work' });
    expect(merged.statusCode).toBe(200);
    expect(merged.json()).toEqual({ name: 'Work', color: '#10B981', count: 3 });
    expect(await api.tags()).toEqual([{ name: 'Work', color: '#10B981', count: 3 }]);
    expect(tagsByTitle(await api.list())).toEqual({ a: ['Work'], b: ['Work'], c: ['Work'] });
  });

  it('delete: the tag leaves every todo', async () => {
    const api = client(await registerUser(ctx.app));
    await api.create({ title: 'a', tags: ['temp', 'keep'] });
    await api.create({ title: 'b', tags: ['Temp'] });
    const removed = await api.remove('TEMP');
    expect(removed.statusCode).toBe(204);
    expect(tagsByTitle(await api.list())).toEqual({ a: ['keep'], b: [] });
    expect((await api.tags()).map((tag) => tag.name)).toEqual(['keep']);
  });

  it("answer 404 for a tag the caller does not have, another user's included", async () => {
    const api = client(await registerUser(ctx.app));
    const other = client(await registerUser(ctx.app));
    await other.create({ title: 'x', tags: ['secret'] });
    for (const response of [
      await api.update('secret', { name: 'mine' }),
      await api.remove('secret'),
      await api.update('nothing', { color: null }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Tag not found', code: 'not_found' });
    }
    expect(await other.tags()).toEqual([{ name: 'secret', color: null, count: 1 }]);
  });

  it('refuse a bad name or colour with a 400 naming the field', async () => {
    const api = client(await registerUser(ctx.app));
    await api.create({ title: 'x', tags: ['ok'] });
    for (const [name, payload, field] of [
      ['ok', { name: 'two words' }, 'name'],
      ['ok', { name: '' }, 'name'],
      ['ok', { name: 'a,b' }, 'name'],
      ['ok', { color: '#123456' }, 'color'],
      ['ok', { size: 3 }, 'size'],
      ['a b', { color: null }, 'name'],
    ] as const) {
      const response = await api.updateRaw(name, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: string }>().error).toContain(field);
    }
    expect(await api.tags()).toEqual([{ name: 'ok', color: null, count: 1 }]);
  });
});
