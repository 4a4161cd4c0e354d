import { accountApi, type AccountExport, todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext, type TestUser } from '../test/helpers.js';
import { imported } from '../test/import-helpers.js';
import { todosClient } from '../test/todos-client.js';

/**
 * A todo's duration (decision 166) through the API: made, changed, cleared, kept when a client
 * omits it, refused out of range, kept through the trash and through export and import.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

const client = (user: TestUser) => todosClient(ctx.app, user);

describe('durationMinutes', () => {
  it('is null by default, set on create, changed by PATCH, kept by a SPEC PUT, cleared by null', async () => {
    const api = client(await registerUser(ctx.app));
    expect((await api.made({ title: 'Plain' })).durationMinutes).toBeNull();
    const todo = await api.made({
      title: 'Write report',
      dueDate: '2026-12-01',
      dueTime: '09:00',
      durationMinutes: 90,
    });
    expect(todo.durationMinutes).toBe(90);
    expect((await api.patch(todo.id, { durationMinutes: 30 })).json()).toMatchObject({
      durationMinutes: 30,
    });
    const spec = await api.put(todo.id, {
      title: 'Write the report',
      description: null,
      groupId: null,
      completed: false,
    });
    expect(spec.json()).toMatchObject({ title: 'Write the report', durationMinutes: 30 });
    expect((await api.patch(todo.id, { durationMinutes: null })).json()).toMatchObject({
      durationMinutes: null,
    });
  });

  it.each([0, -5, 1_441, 2.5, '60'])('refuses %j with a 400 naming the field', async (value) => {
    const api = client(await registerUser(ctx.app));
    const response = await api.call.unchecked(todosApi.create, {
      body: { title: 'x', durationMinutes: value },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toContain('durationMinutes');
    expect(await api.list()).toEqual([]);
  });

  it('comes back from the trash', async () => {
    const api = client(await registerUser(ctx.app));
    const todo = await api.made({ title: 'Gym', durationMinutes: 45 });
    expect((await api.remove(todo.id)).statusCode).toBe(204);
    expect((await api.restore(todo.id)).statusCode).toBe(200);
    expect((await api.list())[0]).toMatchObject({ title: 'Gym', durationMinutes: 45 });
  });

  it('goes out in the export and comes back in by import; a bad one in a file is left out', async () => {
    const user = await registerUser(ctx.app);
    const api = client(user);
    await api.made({
      title: 'Block',
      dueDate: '2026-12-01',
      dueTime: '10:00',
      durationMinutes: 120,
    });
    await api.made({ title: 'No block' });
    const exported = (await apiClient(ctx.app, user)(accountApi.export)).json<AccountExport>();
    expect(exported.todos.map((todo) => [todo.title, todo.durationMinutes])).toEqual([
      ['Block', 120],
      ['No block', null],
    ]);

    const other = await registerUser(ctx.app);
    const file = {
      ...exported,
      todos: [
        ...exported.todos,
        { ...exported.todos[1], id: 999, title: 'Edited by hand', durationMinutes: 99_999 },
      ],
    };
    const report = await imported(ctx.app, other, JSON.stringify(file), 'tally-json');
    expect(report.todos.created).toBe(3);
    const durations = Object.fromEntries(
      (await client(other).list()).map((todo) => [todo.title, todo.durationMinutes]),
    );
    expect(durations).toEqual({ Block: 120, 'No block': null, 'Edited by hand': null });
  });
});
