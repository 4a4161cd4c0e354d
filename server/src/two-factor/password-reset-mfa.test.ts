import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, registerUser, type TestContext } from '../test/helpers.js';
import { linkToken, type LocalSmtp, startLocalSmtp } from '../test/local-smtp.js';

/**
 * A password reset by e-mail link does not get around two-factor codes (ASVS 5.0 6.4.3;
 * docs/decisions/081-two-factor-codes.md): the reset starts no session, and the new password leads to the second step.
 */

let smtp: LocalSmtp;
let ctx: TestContext;
beforeAll(async () => {
  smtp = await startLocalSmtp();
  ctx = await createTestApp({ config: { smtpUrl: smtp.url, mailFrom: 'tally@example.com' } });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

describe('a password reset with two-factor codes on', () => {
  it('starts no session, and signing in with the new password still asks for a code', async () => {
    const user = await registerUser(ctx.app);
    await smtp.take(user.email); // the verification link of registration
    const call = as(ctx.app, user);
    const setup = await call({ method: 'POST', url: '/api/account/two-factor/setup' });
    const secret = Secret.fromBase32(setup.json<{ secret: string }>().secret);
    const code = TOTP.generate({ secret, timestamp: ctx.clock.current });
    const enabled = await call({
      method: 'POST',
      url: '/api/account/two-factor',
      payload: { code },
    });
    expect(enabled.statusCode, enabled.body).toBe(201);

    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: user.email },
    });
    const token = linkToken(await smtp.take(user.email), '/reset-password');
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token, password: 'a brand new password' },
    });
    expect(reset.statusCode, reset.body).toBe(204);
    expect(reset.body).toBe('');
    expect(reset.cookies.some((c) => c.name === 'tally_refresh')).toBe(false);

    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.username, password: 'a brand new password' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ mfaRequired: true, methods: ['totp', 'recovery'] });
    expect(login.json()).not.toHaveProperty('accessToken');
  });
});
