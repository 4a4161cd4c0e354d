import { accountApi, authApi } from '@tally/contract';
import { describe, expect, it } from 'vitest';
import { useAccountApp } from '../test/account-app.js';
import { apiClient } from '../test/api-client.js';

/**
 * The signed-in devices of Settings: listed, and ended one by one or all but this one.
 */

const app = useAccountApp();
const { login, todos, newUser } = app;

describe('sessions', () => {
  it('lists the open sessions, newest first, marking the current one', async () => {
    const user = await newUser();
    app.ctx.clock.advance(1000);
    const second = await login(user);
    const response = await apiClient(app.ctx.app, user)(accountApi.sessions);
    expect(response.statusCode).toBe(200);
    const sessions =
      response.json<
        { id: string; current: boolean; userAgent: string | null; createdAt: string }[]
      >();
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ current: false, userAgent: 'Second device' });
    expect(sessions[1]).toMatchObject({ current: true });
    expect(Date.parse(sessions[0]?.createdAt ?? '')).toBeGreaterThan(
      Date.parse(sessions[1]?.createdAt ?? ''),
    );
    expect(Object.keys(sessions[0] ?? {}).sort()).toEqual([
      'createdAt',
      'current',
      'id',
      'lastUsedAt',
      'userAgent',
    ]);
    const fromSecond = (await apiClient(app.ctx.app, second)(accountApi.sessions)).json<
      { current: boolean }[]
    >();
    expect(fromSecond.map((s) => s.current)).toEqual([true, false]);
  });

  it('ends one session: its access token and cookie fail at once, the others go on', async () => {
    const user = await newUser();
    app.ctx.clock.advance(1000);
    const second = await login(user);
    const [other] = (await apiClient(app.ctx.app, user)(accountApi.sessions)).json<
      { id: string; current: boolean }[]
    >();
    expect(other?.current).toBe(false);
    const end = (id: string) =>
      apiClient(app.ctx.app, user)(accountApi.endSession, { params: { id } });
    expect((await end(other?.id ?? '')).statusCode).toBe(204);
    expect((await todos(second)).statusCode).toBe(401);
    expect((await todos(user)).statusCode).toBe(200);
    const refresh = await apiClient(app.ctx.app, null)(authApi.refresh, {
      headers: { cookie: second.cookie },
    });
    expect(refresh.statusCode).toBe(401);
    // Already ended: 404.
    const again = await end(other?.id ?? '');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'Session not found', code: 'not_found' });
    const listed = (await apiClient(app.ctx.app, user)(accountApi.sessions)).json<unknown[]>();
    expect(listed).toHaveLength(1);
  });

  it("answers 404 for another account's session and leaves it alone", async () => {
    const user = await newUser();
    const stranger = await newUser();
    const [theirs] = (await apiClient(app.ctx.app, stranger)(accountApi.sessions)).json<
      { id: string }[]
    >();
    const response = await apiClient(app.ctx.app, user)(accountApi.endSession, {
      params: { id: theirs?.id ?? '' },
    });
    expect(response.statusCode).toBe(404);
    expect((await todos(stranger)).statusCode).toBe(200);
  });

  it('ends every other session with one call', async () => {
    const user = await newUser();
    const others = [await login(user), await login(user)];
    const response = await apiClient(app.ctx.app, user)(accountApi.endOtherSessions);
    expect(response.statusCode).toBe(204);
    for (const other of others) expect((await todos(other)).statusCode).toBe(401);
    expect((await todos(user)).statusCode).toBe(200);
    const listed = (await apiClient(app.ctx.app, user)(accountApi.sessions)).json<
      { current: boolean }[]
    >();
    expect(listed).toEqual([expect.objectContaining({ current: true })]);
  });
});
