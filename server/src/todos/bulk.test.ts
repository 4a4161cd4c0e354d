import {
  BULK_IDS_MAX,
  type CreateTodoBody,
  groupsApi,
  type Todo,
  todosApi,
  trashApi,
} from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestContext } from '../test/helpers.js';
import { todosClient } from '../test/todos-client.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

async function setUp() {
  const user = await registerUser(ctx.app);
  const api = todosClient(ctx.app, user);
  const { call } = api;
  const group = (
    await call(groupsApi.create, { body: { name: 'Work', color: '#EF4444' } })
  ).expectBody(201);
  const add = async (body: CreateTodoBody) => {
    ctx.clock.advance(1000);
    return api.made(body);
  };
  /** Bodies sent as they are: some of these tests send what the contract refuses. */
  const bulk = (payload: object) => call.unchecked(todosApi.bulk, { body: payload });
  return { user, call, group, add, bulk, totals: api.totals, list: () => api.list() };
}

describe('POST /api/todos/bulk', () => {
  it('completes and reopens, counting each todo changed once (a reopen withdraws its completion), leaving the rest alone', async () => {
    const { add, bulk, totals } = await setUp();
    const a = await add({ title: 'a' });
    const b = await add({ title: 'b' });
    const done = await bulk({ ids: [a.id], action: 'complete' });
    expect(done.json<Todo[]>()).toEqual([{ ...a, completed: true, version: 2 }]);

    const both = await bulk({ ids: [a.id, b.id, b.id], action: 'complete' });
    expect(both.statusCode).toBe(200);
    expect(both.json<Todo[]>()).toEqual([{ ...b, completed: true, version: 2 }]);
    expect(await totals()).toMatchObject({ todosCompleted: 2, todosUpdated: 2 });

    const reopened = await bulk({ ids: [a.id, b.id], action: 'reopen' });
    expect(reopened.json<Todo[]>()).toEqual([
      { ...b, version: 3 },
      { ...a, version: 3 },
    ]);
    // Reopened, they did not stay done: their completions are withdrawn.
    expect(await totals()).toMatchObject({ todosCompleted: 0, todosUpdated: 4 });
  });

  it('completes a repeating todo as a single completion does: next occurrence, still open', async () => {
    const { add, bulk, totals } = await setUp();
    const daily = await add({
      title: 'water',
      dueDate: '2026-03-10',
      repeat: { every: 1, unit: 'day', from: 'due' },
    });
    const [after] = (await bulk({ ids: [daily.id], action: 'complete' })).json<Todo[]>();
    expect(after).toEqual({ ...daily, dueDate: '2026-03-11', completed: false, version: 2 });
    expect(await totals()).toMatchObject({ todosCompleted: 1 });
  });

  it('moves to a group or to none, and refuses a group that is not the caller’s', async () => {
    const { add, bulk, group, list } = await setUp();
    const other = await setUp();
    const a = await add({ title: 'a' });
    const b = await add({ title: 'b', groupId: group.id });
    const moved = await bulk({ ids: [a.id, b.id], action: 'move', groupId: group.id });
    expect(moved.json<Todo[]>()).toEqual([{ ...a, groupId: group.id, version: 2 }]);
    const none = await bulk({ ids: [a.id, b.id], action: 'move', groupId: null });
    expect(none.json<Todo[]>().map((t) => t.groupId)).toEqual([null, null]);

    for (const payload of [
      { ids: [a.id], action: 'move', groupId: other.group.id },
      { ids: [a.id], action: 'move' },
      { ids: [a.id], action: 'complete', groupId: group.id },
    ]) {
      const response = await bulk(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ error: string }>().error).toMatch(/groupId/);
    }
    expect((await list()).map((t) => t.groupId)).toEqual([null, null]);
  });

  it('deletes to the trash and restores from it, each counted once', async () => {
    const { add, bulk, totals, list, call } = await setUp();
    const a = await add({ title: 'a' });
    const b = await add({ title: 'b' });
    const c = await add({ title: 'c' });
    const deleted = await bulk({ ids: [a.id, b.id], action: 'delete' });
    expect(deleted.json<Todo[]>()).toEqual([b, a]);
    expect((await list()).map((t) => t.id)).toEqual([c.id]);
    expect((await call(trashApi.list)).data().map((t) => t.id)).toEqual([b.id, a.id]);
    expect(await totals()).toMatchObject({ todosDeleted: 2 });

    // Undo: restore them.
    expect((await bulk({ ids: [a.id, c.id], action: 'restore' })).statusCode).toBe(404);
    const restored = await bulk({ ids: [a.id, b.id], action: 'restore' });
    expect(restored.json<Todo[]>()).toEqual([
      { ...b, version: 2 },
      { ...a, version: 2 },
    ]);
    expect((await list()).map((t) => t.id)).toEqual([c.id, b.id, a.id]);
  });

  it('changes nothing when any id is not the caller’s (404)', async () => {
    const mine = await setUp();
    const theirs = await setUp();
    const a = await mine.add({ title: 'a' });
    const x = await theirs.add({ title: 'x' });
    for (const action of ['complete', 'delete', 'move']) {
      const response = await mine.bulk({
        ids: [a.id, x.id],
        action,
        ...(action === 'move' ? { groupId: mine.group.id } : {}),
      });
      expect(response.statusCode, action).toBe(404);
    }
    expect(await mine.list()).toEqual([a]);
    expect(await theirs.list()).toEqual([x]);
    expect(await mine.totals()).toMatchObject({ todosCompleted: 0, todosDeleted: 0 });
    expect((await mine.bulk({ ids: [2_000_000_000], action: 'reopen' })).statusCode).toBe(404);
  });

  it('refuses more than 1,000 ids, none, or an unknown action, naming the field', async () => {
    const { bulk } = await setUp();
    const cases: [object, RegExp][] = [
      [
        { ids: Array.from({ length: BULK_IDS_MAX + 1 }, (_, i) => i + 1), action: 'complete' },
        /ids/,
      ],
      [{ ids: [], action: 'complete' }, /ids/],
      [{ ids: [1], action: 'archive' }, /action/],
      [{ ids: ['1'], action: 'complete' }, /ids/],
      [{ ids: [0], action: 'complete' }, /ids/],
      [{ ids: [1] }, /action/],
    ];
    for (const [payload, field] of cases) {
      const response = await bulk(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: string }>().error).toMatch(field);
    }
  });

  it('takes 1,000 todos in one call', async () => {
    const { user, bulk, list, totals } = await setUp();
    const db = ctx.database.handle.db;
    const now = ctx.clock.now();
    await db
      .insertInto('todos')
      .values(
        Array.from({ length: BULK_IDS_MAX }, (_, i) => ({
          user_id: user.id,
          group_id: null,
          title: `t${i}`,
          description: null,
          completed: 0,
          created_at: now + i,
          updated_at: now + i,
          due_date: null,
          due_time: null,
          repeat: null,
          import_key: null,
          search_text: `t${i}`,
        })),
      )
      .execute();
    const ids = (await list()).map((t) => t.id);
    const completed = await bulk({ ids, action: 'complete' });
    expect(completed.statusCode).toBe(200);
    expect(completed.json<Todo[]>()).toHaveLength(BULK_IDS_MAX);
    expect(await totals()).toMatchObject({ todosCompleted: BULK_IDS_MAX });
    const deleted = await bulk({ ids, action: 'delete' });
    expect(deleted.json<Todo[]>()).toHaveLength(BULK_IDS_MAX);
    const restored = await bulk({ ids, action: 'restore' });
    expect(restored.json<Todo[]>()).toHaveLength(BULK_IDS_MAX);
    expect((await list()).every((t) => t.completed)).toBe(true);
  });
  it('sets or clears the due date of many: time and repeat stay with a date and go without one', async () => {
    const { add, bulk, totals } = await setUp();
    const timed = await add({
      title: 'call',
      dueDate: '2026-03-02',
      dueTime: '09:30',
      repeat: { every: 1, unit: 'week', from: 'due' },
      remindMinutesBefore: 10,
      startDate: '2026-03-01',
    });
    const plain = await add({ title: 'plain' });
    const moved = await bulk({ ids: [timed.id, plain.id], action: 'due', dueDate: '2026-03-09' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json<Todo[]>()).toEqual([
      { ...plain, dueDate: '2026-03-09', version: 2 },
      { ...timed, dueDate: '2026-03-09', startDate: '2026-03-08', version: 2 },
    ]);
    expect(await totals()).toMatchObject({ todosUpdated: 2 });
    const cleared = await bulk({ ids: [timed.id], action: 'due', dueDate: null });
    expect(cleared.json<Todo[]>()).toEqual([
      {
        ...timed,
        dueDate: null,
        dueTime: null,
        repeat: null,
        remindMinutesBefore: null,
        reminders: [],
        startDate: '2026-03-08',
        version: 3,
      },
    ]);
    // Already without a date: nothing changes, nothing is counted.
    expect((await bulk({ ids: [timed.id], action: 'due', dueDate: null })).json()).toEqual([]);
    for (const payload of [
      { ids: [plain.id], action: 'due' },
      { ids: [plain.id], action: 'complete', dueDate: '2026-03-09' },
      { ids: [plain.id], action: 'due', dueDate: '2026-02-30' },
    ]) {
      const refused = await bulk(payload);
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ error: string }>().error).toMatch(/dueDate/);
    }
  });
});
