import type { Todo } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TodosClient, todosClient } from '../test/todos-client.js';
import { createTestApp, registerUser, type TestContext, type TestUser } from '../test/helpers.js';

/** Subtasks through the API (docs/product.md, Subtasks). */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

/** The todo calls through the contract (test/todos-client.ts). */
const client = (user: TestUser) => todosClient(ctx.app, user);

/** A chain of `levels` todos, each the subtask of the one before. */
async function chain(api: TodosClient, levels: number): Promise<Todo[]> {
  const todos: Todo[] = [];
  for (let level = 0; level < levels; level += 1) {
    todos.push(await api.made({ title: `level ${level + 1}`, parentId: todos.at(-1)?.id ?? null }));
  }
  return todos;
}

const byTitle = (todos: Todo[]) =>
  Object.fromEntries(todos.map((todo) => [todo.title, todo.parentId]));

describe('subtasks', () => {
  it('are todos with a parentId, listed flat with the rest', async () => {
    const api = client(await registerUser(ctx.app));
    const parent = await api.made({ title: 'Move house' });
    const child = await api.made({ title: 'Book van', parentId: parent.id });
    expect(child.parentId).toBe(parent.id);
    await api.made({ title: 'Pack books', parentId: child.id });
    expect(byTitle(await api.list())).toEqual({
      'Move house': null,
      'Book van': parent.id,
      'Pack books': child.id,
    });
    // A PUT that omits parentId (an older client) leaves it; null moves it to the top level.
    const put = await api.put(child.id, { title: 'Book a van', completed: false });
    expect(put.json()).toMatchObject({ parentId: parent.id });
    expect((await api.patch(child.id, { parentId: null })).json()).toMatchObject({
      parentId: null,
    });
  });

  it('nest at most 4 levels, counting the subtasks of the todo that moves', async () => {
    const api = client(await registerUser(ctx.app));
    const [, , , fourth] = await chain(api, 4);
    const tooDeep = await api.create({ title: 'level 5', parentId: fourth?.id });
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json()).toEqual({ error: 'parentId would nest subtasks deeper than 4 levels' });
    const [top, second] = await chain(api, 2);
    const [other] = await chain(api, 3);
    // A two-level subtree under a three-level chain's last todo: five levels.
    const moved = await api.patch(top?.id ?? 0, { parentId: (await chain(api, 3))[2]?.id });
    expect(moved.statusCode).toBe(400);
    expect(moved.json<{ error: string }>().error).toContain('parentId');
    expect((await api.patch(top?.id ?? 0, { parentId: other?.id })).statusCode).toBe(200);
    expect(second?.parentId).toBe(top?.id);
  });

  it('refuse the todo itself or one of its subtasks as parent (400 naming parentId)', async () => {
    const api = client(await registerUser(ctx.app));
    const [top, middle, bottom] = await chain(api, 3);
    if (!top || !middle || !bottom) throw new Error('no chain');
    for (const [id, parentId, error] of [
      [top.id, top.id, 'parentId cannot be the todo itself'],
      [top.id, bottom.id, 'parentId cannot be one of its own subtasks'],
      [middle.id, bottom.id, 'parentId cannot be one of its own subtasks'],
    ] as const) {
      const response = await api.patch(id, { parentId });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error });
    }
    expect(byTitle(await api.list())).toEqual({
      'level 1': null,
      'level 2': top.id,
      'level 3': middle.id,
    });
  });

  it("refuse another user's todo, or one that does not exist, as parent with 404", async () => {
    const api = client(await registerUser(ctx.app));
    const theirs = await client(await registerUser(ctx.app)).made({ title: 'theirs' });
    const mine = await api.made({ title: 'mine' });
    for (const response of [
      await api.create({ title: 'sneaky', parentId: theirs.id }),
      await api.patch(mine.id, { parentId: theirs.id }),
      await api.create({ title: 'ghost', parentId: 2_000_000_000 }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Parent todo not found' });
    }
    expect((await api.list()).map((todo) => todo.title)).toEqual(['mine']);
  });

  it('go to the trash with their parent, and come back with it', async () => {
    const api = client(await registerUser(ctx.app));
    const [top, middle, bottom] = await chain(api, 3);
    const other = await api.made({ title: 'other' });
    if (!top || !middle || !bottom) throw new Error('no chain');
    await api.patch(bottom.id, { tags: ['kept'] });
    expect((await api.remove(top.id)).statusCode).toBe(204);
    expect((await api.list()).map((todo) => todo.title)).toEqual(['other']);
    expect((await api.trash()).map((todo) => todo.title).sort()).toEqual([
      'level 1',
      'level 2',
      'level 3',
    ]);
    expect((await api.restore(top.id)).statusCode).toBe(200);
    const back = await api.list();
    expect(byTitle(back)).toEqual({
      other: null,
      'level 1': null,
      'level 2': top.id,
      'level 3': middle.id,
    });
    expect(back.find((todo) => todo.id === bottom.id)?.tags).toEqual(['kept']);
    expect(await api.trash()).toEqual([]);
    expect(other.parentId).toBeNull();
  });

  it('deleted in bulk come back together with the undo (restore of the ids answered)', async () => {
    const api = client(await registerUser(ctx.app));
    const [top, child] = await chain(api, 2);
    if (!top || !child) throw new Error('no chain');
    const deleted = await api.bulk({ ids: [top.id], action: 'delete' });
    expect(deleted.statusCode).toBe(200);
    const ids = deleted.json<Todo[]>().map((todo) => todo.id);
    expect(ids.sort()).toEqual([top.id, child.id].sort());
    expect(await api.list()).toEqual([]);
    expect((await api.bulk({ ids, action: 'restore' })).statusCode).toBe(200);
    expect(byTitle(await api.list())).toEqual({ 'level 1': null, 'level 2': top.id });
  });

  it('restored alone while the parent stays in the trash, come back at the top level', async () => {
    const api = client(await registerUser(ctx.app));
    const [top, child] = await chain(api, 2);
    if (!top || !child) throw new Error('no chain');
    await api.remove(child.id);
    await api.remove(top.id);
    expect((await api.restore(child.id)).json()).toMatchObject({ parentId: null });
    expect(byTitle(await api.list())).toEqual({ 'level 2': null });
  });

  it('reopen when their repeating parent is completed for the next occurrence', async () => {
    const api = client(await registerUser(ctx.app));
    const parent = await api.made({
      title: 'Weekly review',
      dueDate: '2026-12-01',
      repeat: { every: 1, unit: 'week', from: 'due' },
    });
    const step = await api.made({ title: 'Inbox zero', parentId: parent.id });
    const deeper = await api.made({ title: 'Archive', parentId: step.id });
    await api.patch(step.id, { completed: true });
    await api.patch(deeper.id, { completed: true });
    const done = await api.patch(parent.id, { completed: true });
    expect(done.json()).toMatchObject({ completed: false, dueDate: '2026-12-08' });
    const after = await api.list();
    expect(after.filter((todo) => todo.completed)).toEqual([]);
    // The same through bulk complete.
    await api.patch(step.id, { completed: true });
    await api.bulk({ ids: [parent.id], action: 'complete' });
    expect((await api.list()).find((todo) => todo.id === step.id)?.completed).toBe(false);
  });

  it('of a parent that does not repeat stay as they are when it is completed', async () => {
    const api = client(await registerUser(ctx.app));
    const [top, child] = await chain(api, 2);
    if (!top || !child) throw new Error('no chain');
    await api.patch(top.id, { completed: true });
    expect((await api.list()).map((todo) => [todo.title, todo.completed])).toEqual([
      ['level 2', false],
      ['level 1', true],
    ]);
  });
});
