import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createTestApp,
  refreshCookieOf,
  registerUser,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';

/**
 * Recent authentication (docs/decisions/071-recent-authentication.md): a stolen access token
 * cannot turn itself into lasting access. Making an API token, linking or unlinking Google and
 * making the calendar feed URL need a proof of the password (or a fresh Google sign-in) from the
 * session in the last 5 minutes; a refresh does not renew it.
 */

const MINUTE = 60_000;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

const REAUTH = { code: 'reauthentication_required', error: expect.stringMatching(/password/) };

/** The user's session, 6 minutes after sign-in, with the access token a refresh gives. */
async function staleSession(): Promise<TestUser> {
  const user = await registerUser(ctx.app);
  ctx.clock.advance(6 * MINUTE);
  const renewed = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/refresh',
    headers: { cookie: user.refreshCookie },
  });
  expect(renewed.statusCode).toBe(200);
  return {
    ...user,
    token: renewed.json<{ accessToken: string }>().accessToken,
    refreshCookie: refreshCookieOf(renewed),
  };
}

const sensitiveCalls = [
  {
    method: 'POST',
    url: '/api/account/tokens',
    payload: { name: 'Backdoor', scope: 'read-write', expiresInDays: null },
  },
  { method: 'POST', url: '/api/account/calendar' },
  { method: 'POST', url: '/api/account/google', payload: { token: 'x'.repeat(40) } },
  { method: 'DELETE', url: '/api/account/google' },
] as const;

const reauthenticate = (user: TestUser, payload: object) =>
  as(ctx.app, user)({ method: 'POST', url: '/api/account/reauthenticate', payload });

describe('sensitive changes need a recent proof of identity', () => {
  it('refuses them to an access token whose session proved nothing for 5 minutes, changing nothing', async () => {
    const user = await staleSession();
    const call = as(ctx.app, user);
    for (const request of sensitiveCalls) {
      const refused = await call(request);
      expect(refused.statusCode, `${request.method} ${request.url}`).toBe(403);
      expect(refused.json()).toEqual(REAUTH);
    }
    expect((await call({ method: 'GET', url: '/api/account/tokens' })).json()).toEqual([]);
    expect((await call({ method: 'GET', url: '/api/account/calendar' })).json()).toBeNull();
    expect((await call({ method: 'GET', url: '/api/account' })).json()).toMatchObject({
      googleLinked: false,
    });
  });

  it('allows them again for 5 minutes after POST /api/account/reauthenticate with the password', async () => {
    const user = await staleSession();
    const call = as(ctx.app, user);
    const proved = await reauthenticate(user, { password: user.password });
    expect(proved.statusCode, proved.body).toBe(204);
    const token = await call(sensitiveCalls[0]);
    expect(token.statusCode, token.body).toBe(201);
    ctx.clock.advance(4 * MINUTE);
    expect((await call(sensitiveCalls[1])).statusCode).toBe(201);
    ctx.clock.advance(2 * MINUTE);
    expect((await call(sensitiveCalls[0])).json()).toEqual(REAUTH);
    expect((await call({ method: 'GET', url: '/api/account/tokens' })).json()).toHaveLength(1);
  });

  it('allows them right after signing in, and a refresh does not renew the proof', async () => {
    const user = await registerUser(ctx.app);
    expect((await as(ctx.app, user)(sensitiveCalls[1])).statusCode).toBe(201);
    ctx.clock.advance(4 * MINUTE);
    const renewed = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: user.refreshCookie },
    });
    ctx.clock.advance(2 * MINUTE);
    const fresh = { token: renewed.json<{ accessToken: string }>().accessToken };
    expect((await as(ctx.app, fresh)(sensitiveCalls[1])).json()).toEqual(REAUTH);
  });

  it('answers a wrong or missing password with a 400 naming password, and proves nothing', async () => {
    const user = await staleSession();
    const wrong = await reauthenticate(user, { password: 'not my password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'password is not correct' });
    const missing = await reauthenticate(user, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'password is required to confirm it is you' });
    const both = await reauthenticate(user, { password: user.password, googleToken: 'abc' });
    expect(both.statusCode).toBe(400);
    expect((await as(ctx.app, user)(sensitiveCalls[0])).json()).toEqual(REAUTH);
  });

  it('never lets a personal API token reauthenticate or make another token', async () => {
    const user = await registerUser(ctx.app);
    const made = await as(ctx.app, user)(sensitiveCalls[0]);
    const { token } = made.json<{ token: string }>();
    const withToken = as(ctx.app, { token });
    for (const request of [
      ...sensitiveCalls,
      {
        method: 'POST',
        url: '/api/account/reauthenticate',
        payload: { password: user.password },
      } as const,
    ]) {
      expect((await withToken(request)).statusCode).toBe(403);
    }
  });
});

describe('PUT /api/account/password with endApiTokensAndFeed', () => {
  const setUp = async () => {
    const user = await registerUser(ctx.app);
    const call = as(ctx.app, user);
    const made = await call(sensitiveCalls[0]);
    const feed = await call(sensitiveCalls[1]);
    return {
      user,
      call,
      apiToken: made.json<{ token: string }>().token,
      feedPath: feed.json<{ path: string }>().path,
    };
  };
  const feedStatus = async (path: string) =>
    (await ctx.app.inject({ method: 'GET', url: path })).statusCode;
  const tokenStatus = async (token: string) =>
    (await as(ctx.app, { token })({ method: 'GET', url: '/api/todos' })).statusCode;

  it('keeps the tokens and the feed unless asked', async () => {
    const { user, call, apiToken, feedPath } = await setUp();
    const changed = await call({
      method: 'PUT',
      url: '/api/account/password',
      payload: { currentPassword: user.password, newPassword: 'another good password' },
    });
    expect(changed.statusCode).toBe(204);
    expect(await tokenStatus(apiToken)).toBe(200);
    expect(await feedStatus(feedPath)).toBe(200);
  });

  it('revokes every API token and turns the calendar feed off when asked', async () => {
    const { user, call, apiToken, feedPath } = await setUp();
    const changed = await call({
      method: 'PUT',
      url: '/api/account/password',
      payload: {
        currentPassword: user.password,
        newPassword: 'another good password',
        endApiTokensAndFeed: true,
      },
    });
    expect(changed.statusCode).toBe(204);
    expect(await tokenStatus(apiToken)).toBe(401);
    expect(await feedStatus(feedPath)).toBe(404);
    expect((await call({ method: 'GET', url: '/api/account/tokens' })).json()).toEqual([]);
    expect((await call({ method: 'GET', url: '/api/account/calendar' })).json()).toBeNull();
  });

  it('refuses a non-boolean endApiTokensAndFeed with a 400 naming it, changing nothing', async () => {
    const { user, call, apiToken } = await setUp();
    const refused = await call({
      method: 'PUT',
      url: '/api/account/password',
      payload: {
        currentPassword: user.password,
        newPassword: 'another good password',
        endApiTokensAndFeed: 'yes',
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: string }>().error).toMatch(/endApiTokensAndFeed/);
    expect(await tokenStatus(apiToken)).toBe(200);
  });
});
