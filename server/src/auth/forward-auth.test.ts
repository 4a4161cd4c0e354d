import { authApi, todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext, type TestUser } from '../test/helpers.js';

let ctx: TestContext;
let off: TestContext;
let alice: TestUser;
beforeAll(async () => {
  ctx = await createTestApp({
    config: {
      authProxyHeader: 'remote-user',
      authProxyTrusted: ['127.0.0.1', '10.0.0.0/8'],
      // Even a proxy trusted for X-Forwarded-For does not make a forwarded address trusted here.
      trustProxy: ['loopback', '203.0.113.0/24'],
    },
  });
  off = await createTestApp();
  alice = await registerUser(ctx.app);
});
afterAll(async () => {
  await ctx.close();
  await off.close();
});

const proxySignIn = (app: TestContext['app'], remoteAddress: string, headers = {}) =>
  apiClient(app, null)(authApi.proxySignIn, { remoteAddress, headers });

describe('POST /api/auth/proxy (forward auth)', () => {
  it('signs in the account a trusted proxy names, with a token that works and a refresh cookie', async () => {
    for (const peer of ['127.0.0.1', '::ffff:10.1.2.3']) {
      const answer = await proxySignIn(ctx.app, peer, {
        'remote-user': alice.username.toUpperCase(),
      });
      expect(answer.statusCode, peer).toBe(200);
      expect(String(answer.headers['set-cookie'])).toMatch(/refresh/i);
      const todos = await apiClient(ctx.app, { token: answer.data().accessToken })(todosApi.list);
      expect(todos.statusCode).toBe(200);
    }
  });

  it('ignores the header from any other address, whatever X-Forwarded-For says', async () => {
    const answer = await proxySignIn(ctx.app, '203.0.113.9', {
      'remote-user': alice.username,
      'x-forwarded-for': '127.0.0.1',
    });
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual({ error: 'No sign-in from a trusted proxy' });
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it('answers 401 without the header and 403 for a username with no account', async () => {
    expect((await proxySignIn(ctx.app, '127.0.0.1')).statusCode).toBe(401);
    const unknown = await proxySignIn(ctx.app, '127.0.0.1', { 'remote-user': 'nobody_here' });
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json<{ error: string }>().error).toMatch(/no account with that username/);
  });

  it('grants nothing elsewhere: the API and CalDAV still ask for their own credentials', async () => {
    const header = { 'remote-user': alice.username };
    const api = await apiClient(ctx.app, null)(todosApi.list, {
      remoteAddress: '127.0.0.1',
      headers: header,
    });
    expect(api.statusCode).toBe(401);
    const caldav = await ctx.app.inject({
      method: 'PROPFIND',
      url: '/dav/',
      remoteAddress: '127.0.0.1',
      headers: { ...header, depth: '0' },
    });
    expect(caldav.statusCode).toBe(401);
  });

  it('is off by default: 404 whatever the request carries', async () => {
    const answer = await proxySignIn(off.app, '127.0.0.1', { 'remote-user': alice.username });
    expect(answer.statusCode).toBe(404);
  });

  it('refuses a cross-site request, which could start a session in a browser unasked', async () => {
    const answer = await proxySignIn(ctx.app, '127.0.0.1', {
      'remote-user': alice.username,
      'sec-fetch-site': 'cross-site',
    });
    expect(answer.statusCode).toBe(403);
  });
});
