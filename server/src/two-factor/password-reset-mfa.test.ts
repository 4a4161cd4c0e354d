import { authApi, twoFactorApi } from '@tally/contract';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext } from '../test/helpers.js';
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
    const call = apiClient(ctx.app, user);
    const setup = await call(twoFactorApi.setup);
    const secret = Secret.fromBase32(setup.json<{ secret: string }>().secret);
    const code = TOTP.generate({ secret, timestamp: ctx.clock.current });
    const enabled = await call(twoFactorApi.enable, { body: { code } });
    expect(enabled.statusCode, enabled.body).toBe(201);

    await apiClient(ctx.app, null)(authApi.requestPasswordReset, { body: { email: user.email } });
    const token = linkToken(await smtp.take(user.email), '/reset-password');
    const reset = await apiClient(ctx.app, null)(authApi.resetPassword, {
      body: { token, password: 'a brand new password' },
    });
    expect(reset.statusCode, reset.body).toBe(204);
    expect(reset.body).toBe('');
    expect(reset.cookies.some((c) => c.name === 'tally_refresh')).toBe(false);

    const login = await apiClient(ctx.app, null)(authApi.login, {
      body: { username: user.username, password: 'a brand new password' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ mfaRequired: true, methods: ['totp', 'recovery'] });
    expect(login.json()).not.toHaveProperty('accessToken');
  });
});
