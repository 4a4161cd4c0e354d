import { authApi, statisticsApi, todosApi, type Endpoint } from '@tally/contract';
import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  refreshCookieOf,
  registerUser,
  TEST_SECRET,
  type TestContext,
  uniqueName,
} from '../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

/** An auth call without a bearer token; some of these tests send what the contract refuses. */
const post = (endpoint: Endpoint, payload?: object, headers?: Record<string, string>) =>
  apiClient(ctx.app, null).unchecked(endpoint, {
    ...(payload ? { body: payload } : {}),
    ...(headers ? { headers } : {}),
  });

const totals = async (token: string) =>
  (await apiClient(ctx.app, { token })(statisticsApi.total)).json<Record<string, number>>();

describe('POST /api/auth/register', () => {
  it('creates the account and answers 201 with an access token for it', async () => {
    const username = uniqueName('New.User-');
    const response = await post(authApi.register, {
      username,
      email: `${username}@example.com`,
      password: 'long enough',
    });
    expect(response.statusCode).toBe(201);
    const { accessToken } = response.json<{ accessToken: string }>();
    const claims = decodeJwt(accessToken);
    expect(claims.sub).toBe(username);
    expect(claims.roles).toEqual(['user']);
    expect(claims.exp).toBe(Math.floor(ctx.clock.now() / 1000) + 15 * 60);
    const cookie = response.cookies.find((c) => c.name === 'tally_refresh');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    expect(response.body).not.toMatch(/hash|argon/i);
    expect(await totals(accessToken)).toMatchObject({
      registrations: 1,
      tokensGenerated: 1,
      refreshTokensCreated: 1,
      logins: 0,
    });
  });

  it('refuses a password built on the product, the username or the e-mail address, creating nothing', async () => {
    const username = uniqueName('maribel');
    const email = `mari.bel.${username}@example.com`;
    const refusal = {
      error:
        'password is built on your username, your e-mail address or the name Tally - choose another',
    };
    for (const password of [
      'tallytally',
      'tally123',
      'TALLY2026!',
      `${username}1`,
      `mari.bel.${username}`,
      'maribel123',
      'Tally-password',
    ]) {
      const response = await post(authApi.register, { username, email, password });
      expect(response.statusCode, password).toBe(400);
      expect(response.json(), password).toEqual(refusal);
    }
    // A passphrase that merely holds a name is fine; nothing was written before it.
    const registered = await post(authApi.register, {
      username,
      email,
      password: 'tally of the wooden horses',
    });
    expect(registered.statusCode).toBe(201);
  });

  it('refuses the most common passwords in any case with a 400 naming password, creating nothing', async () => {
    const username = uniqueName();
    const email = `${username}@example.com`;
    for (const password of ['12345678', 'password', 'iloveyou', 'PassWord1', 'qwertyuiop']) {
      const response = await post(authApi.register, { username, email, password });
      expect(response.statusCode, password).toBe(400);
      expect(response.json()).toEqual({ error: 'password is too common - choose another' });
    }
    // Nothing was written: the name and the address are still free.
    const registered = await post(authApi.register, {
      username,
      email,
      password: 'a less common one',
    });
    expect(registered.statusCode).toBe(201);
  });

  it('answers 409 when the username or e-mail is taken, ignoring case', async () => {
    const user = await registerUser(ctx.app);
    const sameName = await post(authApi.register, {
      username: user.username.toUpperCase(),
      email: 'other@example.com',
      password: 'long enough',
    });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json()).toEqual({ error: 'That username is already taken' });
    const sameEmail = await post(authApi.register, {
      username: uniqueName(),
      email: user.email.toUpperCase(),
      password: 'long enough',
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toEqual({ error: 'That e-mail address is already registered' });
  });

  it.each([
    [{ email: 'a@example.com', password: 'long enough' }, 'username is required'],
    [
      { username: 'ab', email: 'a@example.com', password: 'long enough' },
      'username must be at least 3',
    ],
    [
      { username: 'has space', email: 'a@example.com', password: 'long enough' },
      'username may only',
    ],
    [
      { username: 'valid_name', email: 'not-an-email', password: 'long enough' },
      'email must be a valid',
    ],
    [
      { username: 'valid_name', email: 'a@example.com', password: 'short' },
      'password must be at least 8',
    ],
    [
      { username: 'valid_name', email: 'a@example.com', password: 'x'.repeat(129) },
      'password must be at most 128',
    ],
    [
      { username: 'valid_name', email: 'a@example.com', password: 12345678 },
      'password must be of type string',
    ],
  ])('answers 400 naming the bad field for %j', async (payload, message) => {
    const response = await post(authApi.register, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toContain(message);
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with the right password (username ignoring case) and counts a login', async () => {
    const user = await registerUser(ctx.app);
    const response = await post(authApi.login, {
      username: user.username.toUpperCase(),
      password: user.password,
    });
    expect(response.statusCode).toBe(200);
    const { accessToken } = response.json<{ accessToken: string }>();
    expect(decodeJwt(accessToken).sub).toBe(user.username);
    expect(await totals(accessToken)).toMatchObject({ logins: 1, tokensGenerated: 2 });
  });

  it('answers an unknown user and a wrong password with the same 401', async () => {
    const user = await registerUser(ctx.app);
    const wrong = await post(authApi.login, {
      username: user.username,
      password: 'wrong password',
    });
    const unknown = await post(authApi.login, {
      username: uniqueName(),
      password: 'whatever1',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(wrong.json()).toEqual({ error: 'Invalid username or password' });
  });
});

describe('access tokens', () => {
  /** GET /api/todos with this Authorization header as it is (or none). */
  const todos = (authorization?: string) =>
    apiClient(ctx.app, null)(todosApi.list, authorization ? { headers: { authorization } } : {});

  it('rejects a missing, malformed or forged token with 401', async () => {
    const user = await registerUser(ctx.app);
    const forged = await new SignJWT({ roles: ['user'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.username)
      .setIssuer('tally')
      .setAudience('tally-web')
      .setExpirationTime('15m')
      .sign(new TextEncoder().encode('another-secret-that-is-32-bytes-long!!'));
    const unsigned = new UnsecuredJWT({ roles: ['user'] })
      .setSubject(user.username)
      .setIssuer('tally')
      .setAudience('tally-web')
      .setExpirationTime('15m')
      .encode();
    const [, payload, signature] = user.token.split('.');
    const otherUser = Buffer.from(
      JSON.stringify({ ...decodeJwt(user.token), sub: 'someone' }),
    ).toString('base64url');
    for (const header of [
      undefined,
      'Bearer',
      'Basic abc',
      `Bearer ${forged}`,
      `Bearer ${unsigned}`,
      `Bearer ${user.token.split('.')[0]}.${otherUser}.${signature}`,
      `Bearer ${payload}`,
    ]) {
      const response = await todos(header);
      expect(response.statusCode, String(header)).toBe(401);
      expect(response.json<{ error: string }>().error).toBeTruthy();
    }
    expect((await todos(`Bearer ${user.token}`)).statusCode).toBe(200);
  });

  it('requires exp, and the issuer and audience Tally sets', async () => {
    const user = await registerUser(ctx.app);
    const key = new TextEncoder().encode(TEST_SECRET);
    const base = () =>
      new SignJWT({ roles: ['user'] })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.username);
    const noExp = await base().setIssuer('tally').setAudience('tally-web').sign(key);
    const wrongAudience = await base()
      .setIssuer('tally')
      .setAudience('x')
      .setExpirationTime('15m')
      .sign(key);
    const wrongIssuer = await base()
      .setIssuer('x')
      .setAudience('tally-web')
      .setExpirationTime('15m')
      .sign(key);
    for (const token of [noExp, wrongAudience, wrongIssuer]) {
      expect((await todos(`Bearer ${token}`)).statusCode).toBe(401);
    }
  });

  it('expires after 15 minutes', async () => {
    const user = await registerUser(ctx.app);
    ctx.clock.advance(14 * 60 * 1000);
    expect((await todos(`Bearer ${user.token}`)).statusCode).toBe(200);
    ctx.clock.advance(61 * 1000);
    const expired = await todos(`Bearer ${user.token}`);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ error: 'Invalid or expired token' });
  });
});

describe('refresh and logout', () => {
  const refresh = (cookie?: string) =>
    post(authApi.refresh, undefined, cookie ? { cookie } : undefined);

  it('renews the access token and rotates the cookie', async () => {
    const user = await registerUser(ctx.app);
    ctx.clock.advance(20 * 60 * 1000);
    const first = await refresh(user.refreshCookie);
    expect(first.statusCode).toBe(200);
    const renewed = first.json<{ accessToken: string }>().accessToken;
    expect(decodeJwt(renewed).sub).toBe(user.username);
    const rotated = refreshCookieOf(first);
    expect(rotated).not.toBe(user.refreshCookie);
    const second = await refresh(rotated);
    expect(second.statusCode).toBe(200);
    expect(await totals(renewed)).toMatchObject({ tokensGenerated: 3, refreshTokensCreated: 3 });
  });

  it('treats a replayed refresh token as theft and revokes its whole family', async () => {
    const user = await registerUser(ctx.app);
    const rotated = refreshCookieOf(await refresh(user.refreshCookie));
    const replay = await refresh(user.refreshCookie);
    expect(replay.statusCode).toBe(401);
    expect(replay.json<{ error: string }>().error).toMatch(/session has expired/);
    // The legitimate holder's newer token is dead too.
    expect((await refresh(rotated)).statusCode).toBe(401);
    // Other sessions of the same user are not affected.
    const login = await post(authApi.login, {
      username: user.username,
      password: user.password,
    });
    expect((await refresh(refreshCookieOf(login))).statusCode).toBe(200);
  });

  it('answers 401 without a cookie, with an unknown one, and after logout', async () => {
    expect((await refresh()).statusCode).toBe(401);
    expect((await refresh('tally_refresh=made-up')).statusCode).toBe(401);
    const user = await registerUser(ctx.app);
    const logout = await post(authApi.logout, undefined, { cookie: user.refreshCookie });
    expect(logout.statusCode).toBe(204);
    expect(logout.cookies.find((c) => c.name === 'tally_refresh')?.value).toBe('');
    expect((await refresh(user.refreshCookie)).statusCode).toBe(401);
  });

  it('names the cookie __Host-tally_refresh (Path=/) whenever it is Secure, and reads only that one', async () => {
    const overHttps = { host: 'tally.example.com', 'x-forwarded-proto': 'https' };
    const user = await registerUser(ctx.app);
    const login = await post(
      authApi.login,
      { username: user.username, password: user.password },
      overHttps,
    );
    const cookie = login.cookies.find((c) => c.name === '__Host-tally_refresh');
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie).not.toHaveProperty('domain');
    expect(login.cookies.some((c) => c.name === 'tally_refresh')).toBe(false);
    const secureCookie = `__Host-tally_refresh=${cookie?.value}`;
    // The same value under the plain name (as a page on plain HTTP could plant it) is not read.
    const planted = await post(authApi.refresh, undefined, {
      ...overHttps,
      cookie: `tally_refresh=${cookie?.value}`,
    });
    expect(planted.statusCode).toBe(401);
    const renewed = await post(authApi.refresh, undefined, {
      ...overHttps,
      cookie: secureCookie,
    });
    expect(renewed.statusCode).toBe(200);
  });

  it('still renews a session whose browser kept the __Secure- cookie of earlier versions, and clears that one', async () => {
    const overHttps = { host: 'tally.example.com', 'x-forwarded-proto': 'https' };
    const user = await registerUser(ctx.app);
    const value = user.refreshCookie.replace(/^tally_refresh=/, '');
    const renewed = await post(authApi.refresh, undefined, {
      ...overHttps,
      cookie: `__Secure-tally_refresh=${value}`,
    });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.cookies.find((c) => c.name === '__Host-tally_refresh')?.value).toBeTruthy();
    expect(renewed.cookies.find((c) => c.name === '__Secure-tally_refresh')).toMatchObject({
      value: '',
      path: '/api/auth',
    });
  });

  it('refuses cross-site requests on the cookie routes with 403, and spends no token', async () => {
    const user = await registerUser(ctx.app);
    const from = (headers: Record<string, string>) =>
      post(authApi.refresh, undefined, { cookie: user.refreshCookie, ...headers });
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'http://localhost:3000' },
    ]) {
      const refused = await from(headers);
      expect(refused.statusCode, JSON.stringify(headers)).toBe(403);
      expect(refused.json<{ error: string }>().error).toMatch(/Cross-site/);
    }
    const logout = await post(authApi.logout, undefined, {
      cookie: user.refreshCookie,
      'sec-fetch-site': 'cross-site',
    });
    expect(logout.statusCode).toBe(403);
    // The token is still good: the same origin (or a client that is no browser) may use it.
    const sameOrigin = await from({
      'sec-fetch-site': 'same-origin',
      origin: 'http://localhost:80',
    });
    expect(sameOrigin.statusCode).toBe(200);
    const olderBrowser = await post(authApi.refresh, undefined, {
      cookie: refreshCookieOf(sameOrigin),
      origin: 'http://localhost:80',
    });
    expect(olderBrowser.statusCode).toBe(200);
    const noBrowser = await post(authApi.refresh, undefined, {
      cookie: refreshCookieOf(olderBrowser),
    });
    expect(noBrowser.statusCode).toBe(200);
  });

  it('lets a refresh token expire after 30 days', async () => {
    const user = await registerUser(ctx.app);
    ctx.clock.advance(31 * 24 * 60 * 60 * 1000);
    expect((await refresh(user.refreshCookie)).statusCode).toBe(401);
  });
});

describe('rate limits', () => {
  it('limits auth requests per IP with 429, an error body and Retry-After', async () => {
    const limited = await createTestApp({ config: { authRateLimitPerMinute: 3 } });
    try {
      const attempt = () =>
        apiClient(limited.app, null)(authApi.login, {
          body: { username: 'nobody', password: 'whatever1' },
        });
      for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
      const blocked = await attempt();
      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers['retry-after']).toBeDefined();
      expect(blocked.json<{ error: string }>().error).toMatch(/Too many attempts/);
    } finally {
      await limited.close();
    }
  });

  it('slows login attempts per account whatever the address', async () => {
    const limited = await createTestApp({ config: { loginAttemptsPerAccount: 2 } });
    try {
      const user = await registerUser(limited.app);
      const attempt = (ip: string, username = user.username) =>
        apiClient(limited.app, null)(authApi.login, {
          body: { username, password: 'wrong password' },
          remoteAddress: ip,
        });
      expect((await attempt('10.0.0.1')).statusCode).toBe(401);
      expect((await attempt('10.0.0.2', user.username.toUpperCase())).statusCode).toBe(401);
      // Past the limit one attempt per (growing) delay goes through, from any address.
      expect((await attempt('10.0.0.3')).statusCode).toBe(401);
      expect((await attempt('10.0.0.4')).statusCode).toBe(429);
      expect((await attempt('10.0.0.4', 'someone-else')).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });
});
