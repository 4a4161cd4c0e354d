import { accountApi, AccountExportSchema, groupsApi, todosApi } from '@tally/contract';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { useAccountApp } from '../test/account-app.js';
import { apiClient } from '../test/api-client.js';

// ajv-formats ships CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * The JSON export of everything the account owns.
 */

const HOUR = 60 * 60 * 1000;
const app = useAccountApp();
const { login, newUser } = app;

describe('GET /api/account/export', () => {
  it('sends everything of the account as a versioned JSON attachment, without secrets', async () => {
    const user = await newUser();
    const call = apiClient(app.ctx.app, user);
    const group = (
      await call(groupsApi.create, { body: { name: 'Home', color: '#10B981' } })
    ).json<{ id: number }>();
    const todo = (
      await call(todosApi.create, {
        body: { title: 'Water the plants', description: 'twice', groupId: group.id },
      })
    ).json<{ id: number }>();
    await call(todosApi.update, {
      params: { id: todo.id },
      body: { title: 'Water the plants', groupId: group.id, completed: true },
    });
    app.ctx.clock.advance(24 * HOUR);
    const nextDay = apiClient(app.ctx.app, await login(user));
    await nextDay(todosApi.create, { body: { title: 'Next day' } });

    const response = await nextDay(accountApi.export);
    expect(response.statusCode).toBe(200);
    const day = new Date(app.ctx.clock.now()).toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="tally-export-${day}.json"`,
    );
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const data = response.json<{
      version: number;
      account: { username: string };
      groups: { id: number; name: string }[];
      todos: { title: string; groupId: number | null; completed: boolean }[];
      tags: unknown[];
      todoSorts: Record<string, string>;
      completions: unknown[];
      statistics: { totals: Record<string, number>; daily: Record<string, number | string>[] };
    }>();
    // The answer is what the contract's versioned schema describes, to the format.
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    expect(ajv.validate(AccountExportSchema, data), ajv.errorsText()).toBe(true);
    expect(data.version).toBe(4);
    expect(data.account.username).toBe(user.username);
    expect(data.groups).toEqual([
      { id: group.id, name: 'Home', color: '#10B981', createdAt: expect.any(String) },
    ]);
    expect(data.todos.map((t) => [t.title, t.groupId, t.completed])).toEqual([
      ['Water the plants', group.id, true],
      ['Next day', null, false],
    ]);
    expect(data.todos[1]).toMatchObject({
      dueDate: null,
      dueTime: null,
      repeat: null,
      tags: [],
      priority: 0,
      parentId: null,
      startDate: null,
    });
    expect(data.tags).toEqual([]);
    expect(data.todoSorts).toEqual({});
    expect(data.completions).toEqual([
      expect.objectContaining({ todoId: todo.id, groupId: group.id, onTime: null }),
    ]);
    expect(data.statistics.totals).toMatchObject({
      registrations: 1,
      logins: 1,
      todosCreated: 2,
      todosCompleted: 1,
      groupsCreated: 1,
    });
    expect(data.statistics.daily).toHaveLength(2);
    expect(data.statistics.daily[1]).toMatchObject({ date: day, todosCreated: 1 });
    const text = response.body;
    expect(text).not.toMatch(/argon2|password_hash|token_hash/);
  });
});
