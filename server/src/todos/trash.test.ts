import {
  groupsApi,
  statisticsApi,
  type Todo,
  todosApi,
  trashApi,
  type TrashedTodo,
} from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodicJob } from '../shared/periodic-job.js';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  registerUser,
  signInAgain,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';
import { createTrashService } from './trash.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

const DAY = 86_400_000;

async function setUp() {
  const user = await registerUser(ctx.app);
  const call = apiClient(ctx.app, user);
  const group = (await call(groupsApi.create, { body: { name: 'Home', color: '#10B981' } })).json<{
    id: number;
  }>();
  const add = async (title: string, groupId: number | null = null) => {
    ctx.clock.advance(1000);
    const response = await call(todosApi.create, { body: { title, groupId } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Todo>();
  };
  return { user, call, group, add };
}

const totals = async (user: TestUser) =>
  (await apiClient(ctx.app, user)(statisticsApi.total)).json<{
    todosDeleted: number;
    todosCreated: number;
  }>();

describe('the trash', () => {
  it('takes a deleted todo out of every list, keeps it, and restores it as it was', async () => {
    const { user, call, group, add } = await setUp();
    const todo = await add('Paint the fence', group.id);
    const other = await add('Other');
    expect((await call(todosApi.remove, { params: { id: todo.id } })).statusCode).toBe(204);
    expect((await totals(user)).todosDeleted).toBe(1);

    const list = (await call(todosApi.list)).json<Todo[]>();
    expect(list.map((t) => t.id)).toEqual([other.id]);
    const trashed = (await call(trashApi.list)).json<TrashedTodo[]>();
    expect(trashed).toEqual([{ ...todo, trashedAt: new Date(ctx.clock.now()).toISOString() }]);
    // Deleting it again: it is no longer a todo.
    expect((await call(todosApi.remove, { params: { id: todo.id } })).statusCode).toBe(404);

    const restored = await call(trashApi.restore, { params: { id: todo.id } });
    expect(restored.statusCode).toBe(200);
    // Back from the trash is a write: the version moves on.
    expect(restored.json<Todo>()).toEqual({ ...todo, version: todo.version + 1 });
    expect((await call(todosApi.list)).json<Todo[]>().map((t) => t.id)).toEqual([
      other.id,
      todo.id,
    ]);
    expect((await call(trashApi.list)).json()).toEqual([]);
    // Restored, it was not deleted after all: the deletion is withdrawn.
    expect((await totals(user)).todosDeleted).toBe(0);
  });

  it('restores a todo trashed before several reminders with its one reminder as their list', async () => {
    const { call } = await setUp();
    const body = { title: 'Dentist', dueDate: '2099-03-10', dueTime: '09:00', reminders: [30] };
    const todo = (await call(todosApi.create, { body })).json<Todo>();
    expect((await call(todosApi.remove, { params: { id: todo.id } })).statusCode).toBe(204);
    // As migration 0029's server stored it: one offset in its own column.
    const stored = await ctx.app.db
      .selectFrom('trashed_todos')
      .select('todo')
      .where('id', '=', todo.id)
      .executeTakeFirstOrThrow();
    const old = JSON.parse(stored.todo) as Record<string, unknown>;
    delete old.reminder_minutes;
    await ctx.app.db
      .updateTable('trashed_todos')
      .set({ todo: JSON.stringify({ ...old, remind_minutes_before: 30 }) })
      .where('id', '=', todo.id)
      .execute();
    expect((await call(trashApi.list)).json<TrashedTodo[]>()[0]?.reminders).toEqual([30]);
    const restored = await call(trashApi.restore, { params: { id: todo.id } });
    expect(restored.json<Todo>()).toMatchObject({ reminders: [30], remindMinutesBefore: 30 });
  });

  it('lists the most recently deleted first, and restores into no group when the group is gone', async () => {
    const { call, group, add } = await setUp();
    const first = await add('first', group.id);
    const second = await add('second');
    await call(todosApi.remove, { params: { id: first.id } });
    ctx.clock.advance(1000);
    await call(todosApi.remove, { params: { id: second.id } });
    const trashed = (await call(trashApi.list)).json<TrashedTodo[]>();
    expect(trashed.map((t) => t.title)).toEqual(['second', 'first']);

    await call(groupsApi.remove, { params: { id: group.id } });
    const restored = await call(trashApi.restore, { params: { id: first.id } });
    expect(restored.json<Todo>()).toEqual({ ...first, groupId: null, version: 2 });
  });

  it('deletes for good one todo or all of them, and is the caller’s own', async () => {
    const { user, call, add } = await setUp();
    const stranger = await registerUser(ctx.app);
    const a = await add('a');
    const b = await add('b');
    const c = await add('c');
    for (const todo of [a, b, c]) await call(todosApi.remove, { params: { id: todo.id } });

    const theirs = apiClient(ctx.app, stranger);
    expect((await theirs(trashApi.list)).json()).toEqual([]);
    expect((await theirs(trashApi.restore, { params: { id: a.id } })).statusCode).toBe(404);
    expect((await theirs(trashApi.remove, { params: { id: a.id } })).statusCode).toBe(404);
    expect((await theirs(trashApi.empty)).statusCode).toBe(204);

    expect((await call(trashApi.remove, { params: { id: a.id } })).statusCode).toBe(204);
    expect((await call(trashApi.remove, { params: { id: a.id } })).statusCode).toBe(404);
    expect((await call(trashApi.restore, { params: { id: a.id } })).statusCode).toBe(404);
    expect((await call(trashApi.list)).json<TrashedTodo[]>().map((t) => t.id)).toEqual([
      c.id,
      b.id,
    ]);
    expect((await call(trashApi.empty)).statusCode).toBe(204);
    expect((await call(trashApi.list)).json()).toEqual([]);
    expect((await call(todosApi.list)).json()).toEqual([]);
    expect((await totals(user)).todosDeleted).toBe(3);
    expect((await call(trashApi.remove, { params: { id: 0 } })).statusCode).toBe(400);
  });

  it('purges what was deleted 30 days ago, once per hour across processes and restarts', async () => {
    const { user, call, add } = await setUp();
    const old = await add('old');
    const recent = await add('recent');
    await call(todosApi.remove, { params: { id: old.id } });
    ctx.clock.advance(2 * DAY);
    const deleted = await apiClient(ctx.app, await signInAgain(ctx.app, user))(todosApi.remove, {
      params: { id: recent.id },
    });
    expect(deleted.statusCode).toBe(204);

    const db = ctx.database.handle.db;
    const trash = createTrashService(db, ctx.clock.now);
    const job = (name: string) =>
      periodicJob({
        db,
        clock: ctx.clock.now,
        name,
        everyMs: 3_600_000,
        leaseMs: 600_000,
        run: async () => void (await trash.purge()),
      });
    const name = `purge-test-${user.id}`;
    // Two processes' jobs at once: one runs.
    const [a, b] = [job(name), job(name)];
    ctx.clock.advance(28 * DAY + 1000);
    expect((await Promise.all([a.tick(), b.tick()])).filter(Boolean)).toHaveLength(1);
    const left = async () =>
      (await apiClient(ctx.app, await signInAgain(ctx.app, user))(trashApi.list))
        .json<TrashedTodo[]>()
        .map((t) => t.id);
    expect(await left()).toEqual([recent.id]);
    // Not due again within the hour, even for a process started since (a restart).
    ctx.clock.advance(30 * 60_000);
    expect(await job(name).tick()).toBe(false);
    expect(await a.tick()).toBe(false);
    ctx.clock.advance(2 * DAY);
    expect(await job(name).tick()).toBe(true);
    expect(await left()).toEqual([]);
    const [lease] = await db
      .selectFrom('job_leases')
      .selectAll()
      .where('name', '=', name)
      .execute();
    expect(lease).toMatchObject({ runs: 2, last_run_at: ctx.clock.now(), lease_until: 0 });
  });

  it('frees the lease of a run that failed, so the next tick tries again', async () => {
    const db = ctx.database.handle.db;
    let fail = true;
    const job = periodicJob({
      db,
      clock: ctx.clock.now,
      name: 'failing-test-job',
      everyMs: 3_600_000,
      leaseMs: 600_000,
      run: async () => {
        if (fail) throw new Error('boom');
      },
    });
    await expect(job.tick()).rejects.toThrow('boom');
    fail = false;
    expect(await job.tick()).toBe(true);
  });
});
