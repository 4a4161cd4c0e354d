import type { Todo, TrashedTodo } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodicJob } from '../shared/periodic-job.js';
import {
  as,
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
  const call = as(ctx.app, user);
  const group = (
    await call({
      method: 'POST',
      url: '/api/todo-groups',
      payload: { name: 'Home', color: '#10B981' },
    })
  ).json<{ id: number }>();
  const add = async (title: string, groupId: number | null = null) => {
    ctx.clock.advance(1000);
    const response = await call({ method: 'POST', url: '/api/todos', payload: { title, groupId } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Todo>();
  };
  return { user, call, group, add };
}

const totals = async (user: TestUser) =>
  (await as(ctx.app, user)({ method: 'GET', url: '/api/statistics/total' })).json<{
    todosDeleted: number;
    todosCreated: number;
  }>();

describe('the trash', () => {
  it('takes a deleted todo out of every list, keeps it, and restores it as it was', async () => {
    const { user, call, group, add } = await setUp();
    const todo = await add('Paint the fence', group.id);
    const other = await add('Other');
    expect((await call({ method: 'DELETE', url: `/api/todos/${todo.id}` })).statusCode).toBe(204);
    expect((await totals(user)).todosDeleted).toBe(1);

    const list = (await call({ method: 'GET', url: '/api/todos' })).json<Todo[]>();
    expect(list.map((t) => t.id)).toEqual([other.id]);
    const trashed = (await call({ method: 'GET', url: '/api/trash' })).json<TrashedTodo[]>();
    expect(trashed).toEqual([{ ...todo, trashedAt: new Date(ctx.clock.now()).toISOString() }]);
    // Deleting it again: it is no longer a todo.
    expect((await call({ method: 'DELETE', url: `/api/todos/${todo.id}` })).statusCode).toBe(404);

    const restored = await call({ method: 'POST', url: `/api/trash/${todo.id}/restore` });
    expect(restored.statusCode).toBe(200);
    expect(restored.json<Todo>()).toEqual(todo);
    expect(
      (await call({ method: 'GET', url: '/api/todos' })).json<Todo[]>().map((t) => t.id),
    ).toEqual([other.id, todo.id]);
    expect((await call({ method: 'GET', url: '/api/trash' })).json()).toEqual([]);
    expect((await totals(user)).todosDeleted).toBe(1);
  });

  it('lists the most recently deleted first, and restores into no group when the group is gone', async () => {
    const { call, group, add } = await setUp();
    const first = await add('first', group.id);
    const second = await add('second');
    await call({ method: 'DELETE', url: `/api/todos/${first.id}` });
    ctx.clock.advance(1000);
    await call({ method: 'DELETE', url: `/api/todos/${second.id}` });
    const trashed = (await call({ method: 'GET', url: '/api/trash' })).json<TrashedTodo[]>();
    expect(trashed.map((t) => t.title)).toEqual(['second', 'first']);

    await call({ method: 'DELETE', url: `/api/todo-groups/${group.id}` });
    const restored = await call({ method: 'POST', url: `/api/trash/${first.id}/restore` });
    expect(restored.json<Todo>()).toEqual({ ...first, groupId: null });
  });

  it('deletes for good one todo or all of them, and is the caller’s own', async () => {
    const { user, call, add } = await setUp();
    const stranger = await registerUser(ctx.app);
    const a = await add('a');
    const b = await add('b');
    const c = await add('c');
    for (const todo of [a, b, c]) await call({ method: 'DELETE', url: `/api/todos/${todo.id}` });

    const theirs = as(ctx.app, stranger);
    expect((await theirs({ method: 'GET', url: '/api/trash' })).json()).toEqual([]);
    expect((await theirs({ method: 'POST', url: `/api/trash/${a.id}/restore` })).statusCode).toBe(
      404,
    );
    expect((await theirs({ method: 'DELETE', url: `/api/trash/${a.id}` })).statusCode).toBe(404);
    expect((await theirs({ method: 'DELETE', url: '/api/trash' })).statusCode).toBe(204);

    expect((await call({ method: 'DELETE', url: `/api/trash/${a.id}` })).statusCode).toBe(204);
    expect((await call({ method: 'DELETE', url: `/api/trash/${a.id}` })).statusCode).toBe(404);
    expect((await call({ method: 'POST', url: `/api/trash/${a.id}/restore` })).statusCode).toBe(
      404,
    );
    expect(
      (await call({ method: 'GET', url: '/api/trash' })).json<TrashedTodo[]>().map((t) => t.id),
    ).toEqual([c.id, b.id]);
    expect((await call({ method: 'DELETE', url: '/api/trash' })).statusCode).toBe(204);
    expect((await call({ method: 'GET', url: '/api/trash' })).json()).toEqual([]);
    expect((await call({ method: 'GET', url: '/api/todos' })).json()).toEqual([]);
    expect((await totals(user)).todosDeleted).toBe(3);
    expect((await call({ method: 'DELETE', url: '/api/trash/0' })).statusCode).toBe(400);
  });

  it('purges what was deleted 30 days ago, once per hour across processes and restarts', async () => {
    const { user, call, add } = await setUp();
    const old = await add('old');
    const recent = await add('recent');
    await call({ method: 'DELETE', url: `/api/todos/${old.id}` });
    ctx.clock.advance(2 * DAY);
    const deleted = await as(
      ctx.app,
      await signInAgain(ctx.app, user),
    )({
      method: 'DELETE',
      url: `/api/todos/${recent.id}`,
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
      (await as(ctx.app, await signInAgain(ctx.app, user))({ method: 'GET', url: '/api/trash' }))
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
