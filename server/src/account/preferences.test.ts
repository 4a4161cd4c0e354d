import { accountApi, authApi, TIME_ZONE_HEADER } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, refreshCookieOf, registerUser, type TestContext } from '../test/helpers.js';
import { userPreferences } from './preferences.js';

/** Time zone, language and first day of the week, kept on the account for every device. */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('account preferences', () => {
  it('starts unset, and GET /api/account sends all three as null', async () => {
    const user = await registerUser(ctx.app);
    const answer = await apiClient(ctx.app, user)(accountApi.get);
    expect(answer.json()).toMatchObject({ timeZone: null, language: null, weekStart: null });
    expect(await userPreferences(ctx.app.db, user.id)).toEqual({
      timeZone: 'UTC',
      language: null,
      weekStart: null,
    });
  });

  it('changes only what is sent, in canonical spelling, and null clears one', async () => {
    const user = await registerUser(ctx.app);
    const call = apiClient(ctx.app, user);
    const first = await call(accountApi.setPreferences, {
      body: { timeZone: 'Europe/Berlin', language: 'pt-br', weekStart: 1 },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ timeZone: 'Europe/Berlin', language: 'pt-BR', weekStart: 1 });

    const second = await call(accountApi.setPreferences, { body: { language: null } });
    expect(second.json()).toEqual({ timeZone: 'Europe/Berlin', language: null, weekStart: 1 });
    expect((await call(accountApi.get)).json()).toMatchObject({
      timeZone: 'Europe/Berlin',
      language: null,
      weekStart: 1,
    });
    expect((await userPreferences(ctx.app.db, user.id)).timeZone).toBe('Europe/Berlin');
  });

  it.each([
    [{ timeZone: 'Mars/Olympus' }, 'timeZone'],
    [{ language: 'not a tag!' }, 'language'],
    [{ weekStart: 7 }, 'weekStart'],
    [{ colour: 'red' }, 'colour'],
  ])('refuses %j with a 400 naming %s, and changes nothing', async (body, field) => {
    const user = await registerUser(ctx.app);
    const call = apiClient(ctx.app, user);
    await call(accountApi.setPreferences, { body: { timeZone: 'Asia/Tokyo' } });
    const answer = await call.unchecked(accountApi.setPreferences, { body });
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ error: string }>().error).toContain(field);
    expect((await call(accountApi.get)).json()).toMatchObject({ timeZone: 'Asia/Tokyo' });
  });
});

describe("the browser's zone", () => {
  it('becomes the account zone at sign-in and refresh, until one is chosen', async () => {
    const user = await registerUser(ctx.app);
    const call = apiClient(ctx.app, null);
    const login = (zone: string) =>
      call(authApi.login, {
        body: { username: user.username, password: user.password },
        headers: { [TIME_ZONE_HEADER]: zone },
      });
    expect((await login('Not/AZone')).statusCode).toBe(200);
    expect((await userPreferences(ctx.app.db, user.id)).timeZone).toBe('UTC');

    const first = await login('America/New_York');
    const cookie = refreshCookieOf(first);
    expect((await userPreferences(ctx.app.db, user.id)).timeZone).toBe('America/New_York');

    // Chosen in Settings: a later sign-in or refresh from another zone leaves it.
    await apiClient(ctx.app, user)(accountApi.setPreferences, { body: { timeZone: 'Asia/Tokyo' } });
    await login('Europe/Paris');
    const refreshed = await call(authApi.refresh, {
      headers: { cookie, [TIME_ZONE_HEADER]: 'Europe/Paris' },
    });
    expect(refreshed.statusCode).toBe(200);
    expect((await userPreferences(ctx.app.db, user.id)).timeZone).toBe('Asia/Tokyo');
  });
});
