import { accountApi, authApi, groupsApi, todosApi } from '@tally/contract';
import { describe, expect, it } from 'vitest';
import { useAccountApp } from '../test/account-app.js';
import { apiClient } from '../test/api-client.js';
import { snapshotUser } from '../test/security.js';

/**
 * Deleting the account with everything it owns.
 */

const app = useAccountApp();
const { login, todos, newUser } = app;

describe('DELETE /api/account', () => {
  it('deletes every row of the account in one go; name and address can be used again', async () => {
    const user = await newUser();
    const call = apiClient(app.ctx.app, user);
    const group = (await call(groupsApi.create, { body: { name: 'G', color: '#EF4444' } })).json<{
      id: number;
    }>();
    await call(todosApi.create, { body: { title: 'T', groupId: group.id } });
    await login(user);
    await call(accountApi.resendVerification);
    await app.smtp.take(user.email);
    const bystander = await newUser();
    const db = app.ctx.database.handle.db;
    const bystanderBefore = await snapshotUser(db, bystander.id);
    const rowsOf = async () =>
      Object.fromEntries(
        Object.entries(
          JSON.parse(await snapshotUser(db, user.id)) as Record<string, unknown[]>,
        ).map(([table, rows]) => [table, rows.length]),
      );
    const before = await rowsOf();
    for (const table of [
      'users',
      'todos',
      'todo_groups',
      'sessions',
      'refresh_tokens',
      'statistic_events',
      'statistic_totals',
      'statistic_hours',
      'email_tokens',
    ]) {
      expect(before[table], table).toBeGreaterThan(0);
    }

    const wrong = await call(accountApi.remove, { body: { password: 'no' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'password is not correct' });
    expect(await rowsOf()).toEqual(before);

    const response = await call(accountApi.remove, { body: { password: user.password } });
    expect(response.statusCode).toBe(204);
    const after = await rowsOf();
    expect(Object.entries(after).filter(([, n]) => n !== 0)).toEqual([]);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(await snapshotUser(db, bystander.id)).toBe(bystanderBefore);

    // The access token fails at once, and the name and address are free again.
    expect((await todos(user)).statusCode).toBe(401);
    const again = await apiClient(app.ctx.app, null)(authApi.register, {
      body: { username: user.username, email: user.email, password: 'another password' },
    });
    expect(again.statusCode).toBe(201);
  });

  it('needs the password: none, or a Google credential instead, is a 400 naming it', async () => {
    const user = await newUser();
    const call = (payload: object) =>
      apiClient(app.ctx.app, user)(accountApi.remove, { body: payload });
    const none = await call({});
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ error: 'password is required to delete the account' });
    const both = await call({ password: user.password, googleToken: 'x' });
    expect(both.statusCode).toBe(400);
    expect((await todos(user)).statusCode).toBe(200);
  });
});
