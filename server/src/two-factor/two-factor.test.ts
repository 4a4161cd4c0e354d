import { accountApi, authApi, todosApi, tokensApi, twoFactorApi } from '@tally/contract';
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  otherAccessOf,
  registerUser,
  testConfig,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';

/**
 * Two-factor codes (docs/decisions/081-two-factor-codes.md): setting them up in Settings, the
 * second step of a sign-in, and what a guesser, a replayer or another browser gets.
 */

const MINUTE = 60_000;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

interface TwoFactorUser extends TestUser {
  secret: string;
  recoveryCodes: string[];
}

/** The code the user's app shows now (the app's clock is the test's). */
const codeOf = (user: { secret: string }, at = ctx.clock.current) =>
  TOTP.generate({ secret: Secret.fromBase32(user.secret), timestamp: at });

/** The next 30-second step, so a fresh code exists (the last one was spent). */
const nextStep = () => ctx.clock.advance(30_000);

async function userWithTwoFactor(): Promise<TwoFactorUser> {
  const user = await registerUser(ctx.app);
  const call = apiClient(ctx.app, user);
  const setup = await call(twoFactorApi.setup);
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const enabled = await call(twoFactorApi.enable, { body: { code: codeOf({ secret }) } });
  expect(enabled.statusCode, enabled.body).toBe(201);
  nextStep();
  return {
    ...user,
    secret,
    recoveryCodes: enabled.json<{ recoveryCodes: string[] }>().recoveryCodes,
  };
}

/** The mfa cookie of a login answer, as a Cookie header value. */
const mfaCookieOf = (response: LightMyRequestResponse) => {
  const cookie = response.cookies.find((c) => c.name === 'tally_mfa');
  if (!cookie) throw new Error('no mfa cookie in the response');
  return `tally_mfa=${cookie.value}`;
};

const login = (user: TestUser, remoteAddress?: string) =>
  apiClient(ctx.app, null)(authApi.login, {
    body: { username: user.username, password: user.password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });

/** The first step: the password, answered with an mfaToken and the cookie it is bound to. */
async function firstStep(user: TestUser, remoteAddress?: string) {
  const response = await login(user, remoteAddress);
  expect(response.statusCode, response.body).toBe(200);
  const { mfaToken } = response.json<{ mfaToken: string }>();
  return { mfaToken, cookie: mfaCookieOf(response) };
}

const secondStep = (
  step: { mfaToken: string; cookie?: string },
  code: string,
  extra: { remoteAddress?: string; cookie?: string } = {},
) =>
  apiClient(ctx.app, null)(authApi.mfa, {
    body: { mfaToken: step.mfaToken, code },
    headers: { cookie: [step.cookie, extra.cookie].filter(Boolean).join('; ') },
    ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
  });

describe('Settings → Two-factor', () => {
  it('sets up with a QR code and the secret, confirms with a code and answers 10 recovery codes once', async () => {
    const user = await registerUser(ctx.app);
    const call = apiClient(ctx.app, user);
    expect((await call(twoFactorApi.status)).json()).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });
    const setup = await call(twoFactorApi.setup);
    expect(setup.statusCode).toBe(200);
    const body = setup.json<{ secret: string; otpauthUri: string; qrCode: string }>();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauthUri).toContain(`secret=${body.secret}`);
    expect(body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);

    const wrong = await call(twoFactorApi.enable, {
      body: { code: '000000' === codeOf(body) ? '111111' : '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ error: string }>().error).toMatch(/^code is not correct/);

    const enabled = await call(twoFactorApi.enable, { body: { code: codeOf(body) } });
    expect(enabled.statusCode, enabled.body).toBe(201);
    const { recoveryCodes } = enabled.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const status = (await call(twoFactorApi.status)).json();
    expect(status).toEqual({
      enabled: true,
      enabledAt: new Date(ctx.clock.current).toISOString(),
      recoveryCodesLeft: 10,
    });
    // The secret is never answered again, nor are the recovery codes.
    const again = await call(twoFactorApi.setup);
    expect(again.statusCode).toBe(409);
    expect(JSON.stringify(status)).not.toContain(body.secret);
  });

  it('answers 400 naming code for a malformed one', async () => {
    const user = await registerUser(ctx.app);
    const response = await apiClient(ctx.app, user).unchecked(twoFactorApi.enable, {
      body: { code: '' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toMatch(/code/);
  });

  it('needs a recent proof of identity to set up, turn on or turn off', async () => {
    const user = await userWithTwoFactor();
    ctx.clock.advance(6 * MINUTE);
    const call = apiClient(ctx.app, user);
    for (const request of [
      [twoFactorApi.setup, {}],
      [twoFactorApi.enable, { body: { code: codeOf(user) } }],
      [twoFactorApi.disable, { body: { password: user.password } }],
    ] as const) {
      const refused = await call.unchecked(request[0], request[1]);
      expect(refused.statusCode, request[0].path).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'reauthentication_required' });
    }
    expect((await call(twoFactorApi.status)).json()).toMatchObject({
      enabled: true,
    });
  });

  it('keeps the secret encrypted and the recovery codes hashed in the database, and both out of the account export', async () => {
    const user = await userWithTwoFactor();
    const row = await ctx.database.handle.db
      .selectFrom('two_factor')
      .select('secret')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(user.secret);
    expect(row.secret).toMatch(/^v1\./);
    const hashes = await ctx.database.handle.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(hashes).toHaveLength(10);
    for (const { code_hash } of hashes) expect(code_hash).toMatch(/^\$argon2id\$/);
    const exported = await apiClient(ctx.app, user)(accountApi.export);
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain(user.secret);
    for (const code of user.recoveryCodes) expect(exported.body).not.toContain(code);
    expect(exported.body).not.toMatch(/two.?factor|recovery|totp/i);
  });
});

describe('signing in with two-factor codes on', () => {
  it('answers the second step instead of an access token, then a session for the code', async () => {
    const user = await userWithTwoFactor();
    const response = await login(user);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      mfaRequired: true,
      mfaToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      methods: ['totp', 'recovery'],
    });
    expect(response.cookies.find((c) => c.name === 'tally_refresh')).toBeUndefined();
    const mfa = response.cookies.find((c) => c.name === 'tally_mfa');
    expect(mfa).toMatchObject({ httpOnly: true, sameSite: 'Strict', maxAge: 300 });

    const step = {
      mfaToken: response.json<{ mfaToken: string }>().mfaToken,
      cookie: mfaCookieOf(response),
    };
    const done = await secondStep(step, codeOf(user));
    expect(done.statusCode, done.body).toBe(200);
    const { accessToken } = done.json<{ accessToken: string }>();
    expect(Object.keys(done.json())).toEqual(['accessToken']);
    expect(done.cookies.find((c) => c.name === 'tally_refresh')?.value).toBeTruthy();
    const account = await apiClient(ctx.app, { token: accessToken })(accountApi.get);
    expect(account.json()).toMatchObject({ username: user.username });
    // One session per mfaToken.
    nextStep();
    const again = await secondStep(step, codeOf(user));
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ error: 'This sign-in has expired - please sign in again' });
  });

  it('accepts spaces and dashes in the code', async () => {
    const user = await userWithTwoFactor();
    const code = codeOf(user);
    const done = await secondStep(await firstStep(user), `${code.slice(0, 3)} ${code.slice(3)}`);
    expect(done.statusCode, done.body).toBe(200);
  });

  it('refuses a wrong code with 401 and a sentence, and ends the mfaToken after 5', async () => {
    const user = await userWithTwoFactor();
    const step = await firstStep(user);
    const wrongCode = codeOf(user) === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i += 1) {
      const wrong = await secondStep(step, wrongCode);
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ error: 'The code is not correct' });
    }
    const sixth = await secondStep(step, codeOf(user));
    expect(sixth.statusCode).toBe(401);
    expect(sixth.json()).toEqual({ error: 'Too many wrong codes - please sign in again' });
    // The password again gives a fresh mfaToken, and the right code works.
    const done = await secondStep(await firstStep(user), codeOf(user));
    expect(done.statusCode, done.body).toBe(200);
  });

  it('never accepts a TOTP code twice, even in a new sign-in', async () => {
    const user = await userWithTwoFactor();
    const code = codeOf(user);
    expect((await secondStep(await firstStep(user), code)).statusCode).toBe(200);
    const replayed = await secondStep(await firstStep(user), code);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toEqual({ error: 'The code is not correct' });
    nextStep();
    expect((await secondStep(await firstStep(user), codeOf(user))).statusCode).toBe(200);
  });

  it('refuses the code of an older step than the last accepted', async () => {
    const user = await userWithTwoFactor();
    const earlier = codeOf(user, ctx.clock.current - 30_000);
    expect((await secondStep(await firstStep(user), codeOf(user))).statusCode).toBe(200);
    const older = await secondStep(await firstStep(user), earlier);
    expect(older.statusCode).toBe(401);
  });

  it('lets the mfaToken live 5 minutes', async () => {
    const user = await userWithTwoFactor();
    const step = await firstStep(user);
    ctx.clock.advance(5 * MINUTE);
    const late = await secondStep(step, codeOf(user));
    expect(late.statusCode).toBe(401);
    expect(late.json()).toEqual({ error: 'This sign-in has expired - please sign in again' });
  });

  it('refuses an mfaToken sent from another browser (without its cookie, or with another)', async () => {
    const user = await userWithTwoFactor();
    const step = await firstStep(user);
    const other = await firstStep(user);
    for (const cookie of [undefined, other.cookie, 'tally_mfa=forged']) {
      const refused = await secondStep({ mfaToken: step.mfaToken, cookie }, codeOf(user));
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({
        error: 'This sign-in was started in another browser - please sign in again',
      });
    }
    // The code was not spent: the right browser still signs in with it.
    expect((await secondStep(step, codeOf(user))).statusCode).toBe(200);
  });

  it('takes each recovery code once', async () => {
    const user = await userWithTwoFactor();
    const [first, second] = user.recoveryCodes as [string, string];
    const done = await secondStep(await firstStep(user), first.toUpperCase());
    expect(done.statusCode, done.body).toBe(200);
    const twice = await secondStep(await firstStep(user), first);
    expect(twice.statusCode).toBe(401);
    expect(twice.json()).toEqual({ error: 'The code is not correct' });
    expect((await secondStep(await firstStep(user), second.replace('-', ''))).statusCode).toBe(200);
    const status = await apiClient(ctx.app, {
      token: done.json<{ accessToken: string }>().accessToken,
    })(twoFactorApi.status);
    expect(status.json()).toMatchObject({ recoveryCodesLeft: 8 });
  });

  it('answers 400 naming the field for a malformed second step', async () => {
    const response = await apiClient(ctx.app, null).unchecked(authApi.mfa, {
      body: { mfaToken: 'abc' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toMatch(/code/);
  });

  it('limits wrong codes per account without locking out a browser that signed in before', async () => {
    const user = await userWithTwoFactor();
    const home = '198.51.100.20';
    // The owner signed in with a code once from home: that browser keeps the device cookie.
    const before = await secondStep(await firstStep(user, home), codeOf(user), {
      remoteAddress: home,
    });
    expect(before.statusCode, before.body).toBe(200);
    const device = before.cookies.find((c) => c.name === 'tally_device');
    if (!device) throw new Error('no device cookie');
    nextStep();

    // A stranger who knows the password, from an address the account never used.
    const stranger = '203.0.113.7';
    const wrongCode = codeOf(user) === '123456' ? '654321' : '123456';
    for (let round = 0; round < 2; round += 1) {
      const step = await firstStep(user, stranger);
      for (let i = 0; i < 5; i += 1) {
        const wrong = await secondStep(step, wrongCode, { remoteAddress: stranger });
        expect(wrong.statusCode).toBe(401);
      }
    }
    const limited = await secondStep(await firstStep(user, stranger), codeOf(user), {
      remoteAddress: stranger,
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ error: string }>().error).toMatch(
      /^Too many wrong codes - try again in \d+ seconds$/,
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // Another new browser elsewhere is held to the limit too...
    const elsewhere = '192.0.2.99';
    const blocked = await secondStep(await firstStep(user, elsewhere), codeOf(user), {
      remoteAddress: elsewhere,
    });
    expect(blocked.statusCode).toBe(429);
    // ...but the owner's browser, even on a new network, signs in at once,
    const owner = await secondStep(await firstStep(user, elsewhere), codeOf(user), {
      remoteAddress: elsewhere,
      cookie: `tally_device=${device.value}`,
    });
    expect(owner.statusCode, owner.body).toBe(200);
    // and so does a new browser at the address the account signed in from.
    nextStep();
    const atHome = await secondStep(await firstStep(user, home), codeOf(user), {
      remoteAddress: home,
    });
    expect(atHome.statusCode, atHome.body).toBe(200);
  });
});

describe('turning two-factor codes off', () => {
  it('takes a current code', async () => {
    const user = await userWithTwoFactor();
    const call = apiClient(ctx.app, user);
    const wrong = await call(twoFactorApi.disable, {
      body: { code: codeOf(user) === '123456' ? '654321' : '123456' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'code is not correct' });
    const off = await call(twoFactorApi.disable, { body: { code: codeOf(user) } });
    expect(off.statusCode, off.body).toBe(204);
    const plain = await login(user);
    expect(Object.keys(plain.json())).toEqual(['accessToken']);
    expect((await call(twoFactorApi.status)).json()).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });
  });

  it('takes the password instead', async () => {
    const user = await userWithTwoFactor();
    const call = apiClient(ctx.app, user);
    const wrong = await call(twoFactorApi.disable, { body: { password: 'not the password' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'password is not correct' });
    const neither = await call(twoFactorApi.disable, { body: {} });
    expect(neither.statusCode).toBe(400);
    const off = await call(twoFactorApi.disable, { body: { password: user.password } });
    expect(off.statusCode, off.body).toBe(204);
    expect(Object.keys((await login(user)).json())).toEqual(['accessToken']);
    const twice = await call(twoFactorApi.disable, { body: { password: user.password } });
    expect(twice.statusCode).toBe(409);
  });
});

describe('ending other access with a change of two-factor codes', () => {
  it('ends nothing else unless asked', async () => {
    const user = await registerUser(ctx.app);
    const access = await otherAccessOf(ctx.app, user);
    const call = apiClient(ctx.app, user);
    const { secret } = (await call(twoFactorApi.setup)).json<{ secret: string }>();
    const enabled = await call(twoFactorApi.enable, { body: { code: codeOf({ secret }) } });
    expect(enabled.statusCode, enabled.body).toBe(201);
    expect(await access()).toEqual({ otherDevice: 200, apiToken: 200, feed: 200, thisDevice: 200 });
  });

  it('turned on, signs every other device out, revokes the API tokens and the feed when asked', async () => {
    const user = await registerUser(ctx.app);
    const access = await otherAccessOf(ctx.app, user);
    const call = apiClient(ctx.app, user);
    const { secret } = (await call(twoFactorApi.setup)).json<{ secret: string }>();
    const enabled = await call(twoFactorApi.enable, {
      body: { code: codeOf({ secret }), endOtherSessions: true, endApiTokensAndFeed: true },
    });
    expect(enabled.statusCode, enabled.body).toBe(201);
    expect(await access()).toEqual({ otherDevice: 401, apiToken: 401, feed: 404, thisDevice: 200 });
  });

  it('turned off, signs every other device out when asked, keeping the tokens', async () => {
    const user = await userWithTwoFactor();
    const apiToken = await apiClient(ctx.app, user)(tokensApi.create, {
      body: { name: 'Script', scope: 'read-write', expiresInDays: null },
    });
    // With codes on, the second device signs in with its own code.
    const step = await firstStep(user);
    const device = await secondStep(step, codeOf(user));
    expect(device.statusCode, device.body).toBe(200);
    const deviceToken = device.json<{ accessToken: string }>().accessToken;
    nextStep();
    const off = await apiClient(ctx.app, user)(twoFactorApi.disable, {
      body: { code: codeOf(user), endOtherSessions: true },
    });
    expect(off.statusCode, off.body).toBe(204);
    expect((await apiClient(ctx.app, { token: deviceToken })(todosApi.list)).statusCode).toBe(401);
    expect((await apiClient(ctx.app, user)(todosApi.list)).statusCode).toBe(200);
    const token = apiToken.json<{ token: string }>().token;
    expect((await apiClient(ctx.app, { token })(todosApi.list)).statusCode).toBe(200);
  });
});

describe('an account with two-factor codes on', () => {
  it('loses its secret, recovery codes and waiting sign-ins with the account', async () => {
    const user = await userWithTwoFactor();
    await firstStep(user);
    const removed = await apiClient(ctx.app, user)(accountApi.remove, {
      body: { password: user.password },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    const { db } = ctx.database.handle;
    for (const table of ['two_factor', 'recovery_codes', 'mfa_challenges'] as const) {
      const rows = await db
        .selectFrom(table)
        .select('user_id')
        .where('user_id', '=', user.id)
        .execute();
      expect(rows, table).toEqual([]);
    }
  });

  it('can have them turned off by the operator (tally user disable-two-factor)', async () => {
    const user = await userWithTwoFactor();
    let out = '';
    const tally = (argv: string[]) =>
      runCli(
        argv,
        {
          stdin: Readable.from([]),
          stdout: { write: (text: string) => (out += text) },
          stderr: { write: () => true },
        },
        {
          config: testConfig({ dataDir: ctx.database.dataDir }),
          database: ctx.database.handle,
        },
      );
    expect(await tally(['user', 'disable-two-factor', user.username])).toBe(0);
    expect(out).toBe(
      `Turned two-factor codes off for ${user.username}: the password alone signs in\n`,
    );
    expect(Object.keys((await login(user)).json())).toEqual(['accessToken']);
    expect(await tally(['user', 'disable-two-factor', user.username])).toBe(0);
    expect(out).toMatch(/had no two-factor codes on\n$/);
  });
});
