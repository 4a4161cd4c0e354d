import {
  accountApi,
  authApi,
  calendarApi,
  todosApi,
  tokensApi,
  type Endpoint,
} from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type UncheckedInput } from '../test/api-client.js';
import {
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
  const renewed = await apiClient(ctx.app, null)(authApi.refresh, {
    headers: { cookie: user.refreshCookie },
  });
  expect(renewed.statusCode).toBe(200);
  return {
    ...user,
    token: renewed.json<{ accessToken: string }>().accessToken,
    refreshCookie: refreshCookieOf(renewed),
  };
}

/** The sensitive calls (contract: recentAuth), each with what it sends. */
const sensitiveCalls = [
  [tokensApi.create, { body: { name: 'Backdoor', scope: 'read-write', expiresInDays: null } }],
  [calendarApi.regenerate, {}],
  [accountApi.linkGoogle, { body: { token: 'x'.repeat(40) } }],
  [accountApi.unlinkGoogle, {}],
] as const;
type SensitiveCall = (typeof sensitiveCalls)[number] | [Endpoint, UncheckedInput];
/** One sensitive call as `user` (sent as it is: each has its own endpoint). */
const send = (user: { token: string }, [endpoint, input]: SensitiveCall) =>
  apiClient(ctx.app, user).unchecked(endpoint, input);

const reauthenticate = (user: TestUser, payload: object) =>
  apiClient(ctx.app, user)(accountApi.reauthenticate, { body: payload });

describe('sensitive changes need a recent proof of identity', () => {
  it('refuses them to an access token whose session proved nothing for 5 minutes, changing nothing', async () => {
    const user = await staleSession();
    const call = apiClient(ctx.app, user);
    for (const request of sensitiveCalls) {
      const refused = await send(user, request);
      expect(refused.statusCode, `${request[0].method} ${request[0].path}`).toBe(403);
      expect(refused.json()).toEqual(REAUTH);
    }
    expect((await call(tokensApi.list)).json()).toEqual([]);
    expect((await call(calendarApi.get)).json()).toBeNull();
    expect((await call(accountApi.get)).json()).toMatchObject({
      googleLinked: false,
    });
  });

  it('allows them again for 5 minutes after POST /api/account/reauthenticate with the password', async () => {
    const user = await staleSession();
    const call = apiClient(ctx.app, user);
    const proved = await reauthenticate(user, { password: user.password });
    expect(proved.statusCode, proved.body).toBe(204);
    const token = await send(user, sensitiveCalls[0]);
    expect(token.statusCode, token.body).toBe(201);
    ctx.clock.advance(4 * MINUTE);
    expect((await send(user, sensitiveCalls[1])).statusCode).toBe(201);
    ctx.clock.advance(2 * MINUTE);
    expect((await send(user, sensitiveCalls[0])).json()).toEqual(REAUTH);
    expect((await call(tokensApi.list)).json()).toHaveLength(1);
  });

  it('allows them right after signing in, and a refresh does not renew the proof', async () => {
    const user = await registerUser(ctx.app);
    expect((await send(user, sensitiveCalls[1])).statusCode).toBe(201);
    ctx.clock.advance(4 * MINUTE);
    const renewed = await apiClient(ctx.app, null)(authApi.refresh, {
      headers: { cookie: user.refreshCookie },
    });
    ctx.clock.advance(2 * MINUTE);
    const fresh = { token: renewed.json<{ accessToken: string }>().accessToken };
    expect((await send(fresh, sensitiveCalls[1])).json()).toEqual(REAUTH);
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
    expect((await send(user, sensitiveCalls[0])).json()).toEqual(REAUTH);
  });

  it('never lets a personal API token reauthenticate or make another token', async () => {
    const user = await registerUser(ctx.app);
    const made = await send(user, sensitiveCalls[0]);
    const { token } = made.json<{ token: string }>();
    const reauthentication: SensitiveCall = [
      accountApi.reauthenticate,
      { body: { password: user.password } },
    ];
    for (const request of [...sensitiveCalls, reauthentication]) {
      expect((await send({ token }, request)).statusCode).toBe(403);
    }
  });
});

describe('PUT /api/account/password with endApiTokensAndFeed', () => {
  const setUp = async () => {
    const user = await registerUser(ctx.app);
    const call = apiClient(ctx.app, user);
    const made = await send(user, sensitiveCalls[0]);
    const feed = await send(user, sensitiveCalls[1]);
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
    (await apiClient(ctx.app, { token })(todosApi.list)).statusCode;

  it('keeps the tokens and the feed unless asked', async () => {
    const { user, call, apiToken, feedPath } = await setUp();
    const changed = await call(accountApi.changePassword, {
      body: { currentPassword: user.password, newPassword: 'another good password' },
    });
    expect(changed.statusCode).toBe(204);
    expect(await tokenStatus(apiToken)).toBe(200);
    expect(await feedStatus(feedPath)).toBe(200);
  });

  it('revokes every API token and turns the calendar feed off when asked', async () => {
    const { user, call, apiToken, feedPath } = await setUp();
    const changed = await call(accountApi.changePassword, {
      body: {
        currentPassword: user.password,
        newPassword: 'another good password',
        endApiTokensAndFeed: true,
      },
    });
    expect(changed.statusCode).toBe(204);
    expect(await tokenStatus(apiToken)).toBe(401);
    expect(await feedStatus(feedPath)).toBe(404);
    expect((await call(tokensApi.list)).json()).toEqual([]);
    expect((await call(calendarApi.get)).json()).toBeNull();
  });

  it('refuses a non-boolean endApiTokensAndFeed with a 400 naming it, changing nothing', async () => {
    const { user, call, apiToken } = await setUp();
    const refused = await call.unchecked(accountApi.changePassword, {
      body: {
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
