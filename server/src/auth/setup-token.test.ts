import { authApi, systemApi } from '@tally/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, type TestContext, uniqueName } from '../test/helpers.js';

const SETUP_TOKEN = 'first-start-token-0123456789';

const contexts: TestContext[] = [];
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.close();
});

async function serverWith(registration: 'open' | 'closed') {
  const ctx = await createTestApp({ config: { setupToken: SETUP_TOKEN, registration } });
  contexts.push(ctx);
  const call = apiClient(ctx.app, null);
  const register = (setupToken?: string) => {
    const username = uniqueName('first');
    return call(authApi.register, {
      body: {
        username,
        email: `${username}@example.com`,
        password: 'correct horse battery',
        ...(setupToken === undefined ? {} : { setupToken }),
      },
    });
  };
  const accounts = async () =>
    (await ctx.database.handle.db.selectFrom('users').select('id').execute()).length;
  const required = async () => (await call(systemApi.config)).data().setupTokenRequired;
  return { register, accounts, required };
}

describe('SETUP_TOKEN', () => {
  it('makes the first account only with the token, then sign-up is open as before', async () => {
    const server = await serverWith('open');
    expect(await server.required()).toBe(true);

    const missing = await server.register();
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      error:
        'setupToken is required: the first account on this server needs the setup token its operator set',
    });
    const wrong = await server.register('not-the-token-at-all');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ error: "setupToken is not this server's setup token" });
    // Neither the refusals nor their bodies give the token away.
    expect(`${missing.body}${wrong.body}`).not.toContain(SETUP_TOKEN);
    expect(await server.accounts()).toBe(0);

    expect((await server.register(SETUP_TOKEN)).statusCode).toBe(201);
    expect(await server.required()).toBe(false);
    // After the first account the token means nothing: open sign-up needs none.
    expect((await server.register()).statusCode).toBe(201);
    expect(await server.accounts()).toBe(2);
  });

  it('makes the first account with the token while sign-up is closed, and no other', async () => {
    const server = await serverWith('closed');
    expect(await server.required()).toBe(true);
    expect((await server.register(SETUP_TOKEN)).statusCode).toBe(201);
    const second = await server.register(SETUP_TOKEN);
    expect(second.statusCode).toBe(403);
    expect(second.json()).toEqual({ error: 'Sign-up is closed on this server' });
    expect(await server.accounts()).toBe(1);
  });

  it('refuses a token longer than the contract allows with a 400 naming the field', async () => {
    const server = await serverWith('open');
    const long = await server.register('x'.repeat(201));
    expect(long.statusCode).toBe(400);
    expect(long.json<{ error: string }>().error).toMatch(/setupToken/);
    expect(await server.accounts()).toBe(0);
  });

  it('asks for nothing when SETUP_TOKEN is unset', async () => {
    const ctx = await createTestApp();
    contexts.push(ctx);
    const config = await apiClient(ctx.app, null)(systemApi.config);
    expect(config.data().setupTokenRequired).toBe(false);
  });
});
