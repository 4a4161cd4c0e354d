import { accountApi, authApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext } from '../test/helpers.js';
import { linkToken, type LocalSmtp, SMTP_PASSWORD, startLocalSmtp } from '../test/local-smtp.js';

/**
 * The security log (docs/product.md, Accounts): every change that matters to an account's
 * safety is a warn line naming the account and the address it came from, and no line holds a
 * password, a token or the SMTP credentials.
 */

const lines: string[] = [];
let smtp: LocalSmtp;
let ctx: TestContext;

beforeAll(async () => {
  smtp = await startLocalSmtp();
  ctx = await createTestApp({
    config: { smtpUrl: smtp.url, mailFrom: 'tally@example.com' },
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
  });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

interface LogLine {
  level: number;
  security?: string;
  userId?: number;
  ip?: string;
}
const WARN = 40;
const events = () =>
  lines.map((line) => JSON.parse(line) as LogLine).filter((line) => line.security !== undefined);

describe('the security log', () => {
  it('records password, e-mail, session, reset and deletion events with account and address', async () => {
    const user = await registerUser(ctx.app);
    const verification = linkToken(await smtp.take(user.email), '/verify-email');
    const ip = '203.0.113.7';
    const call = apiClient(ctx.app, user, { remoteAddress: ip });
    const login = await apiClient(ctx.app, null)(authApi.login, {
      body: { username: user.username, password: user.password },
    });
    expect(login.statusCode).toBe(200);

    const newPassword = 'a very new password';
    const steps = [
      await call(accountApi.changePassword, {
        body: { currentPassword: user.password, newPassword },
      }),
      await call(accountApi.changeEmail, {
        body: { email: `moved-${user.email}`, currentPassword: newPassword },
      }),
      await call(accountApi.endOtherSessions),
      await call(accountApi.reauthenticate, { body: { password: newPassword } }),
    ];
    for (const step of steps) expect(step.statusCode).toBeLessThan(300);
    const other = await apiClient(ctx.app, null)(authApi.login, {
      body: { username: user.username, password: newPassword },
    });
    const sessions = (await call(accountApi.sessions)).json<{ id: string; current: boolean }[]>();
    const ended = await call(accountApi.endSession, {
      params: { id: sessions.find((s) => !s.current)?.id ?? '' },
    });
    expect(ended.statusCode).toBe(204);

    await smtp.take(`moved-${user.email}`); // the new address's verification link
    await apiClient(ctx.app, null)(authApi.requestPasswordReset, {
      body: { email: `moved-${user.email}` },
      remoteAddress: ip,
    });
    const resetToken = linkToken(await smtp.take(`moved-${user.email}`), '/reset-password');
    const reset = await apiClient(ctx.app, null)(authApi.resetPassword, {
      body: { token: resetToken, password: 'reset password 1' },
      remoteAddress: ip,
    });
    expect(reset.statusCode).toBe(204);
    const fresh = await apiClient(ctx.app, null)(authApi.login, {
      body: { username: user.username, password: 'reset password 1' },
    });
    const removed = await apiClient(ctx.app, {
      token: fresh.json<{ accessToken: string }>().accessToken,
    })(accountApi.remove, { body: { password: 'reset password 1' }, remoteAddress: ip });
    expect(removed.statusCode).toBe(204);

    const seen = events().filter((line) => line.userId === user.id);
    expect(seen.map((line) => line.security)).toEqual([
      'password-changed',
      'email-changed',
      'sessions-ended',
      'reauthenticated',
      'session-ended',
      'password-reset-requested',
      'password-reset',
      'account-deleted',
    ]);
    for (const line of seen) expect(line).toMatchObject({ level: WARN, ip });
    // The reset says what it ended: every session, API token and the calendar feed.
    expect(seen.find((line) => line.security === 'password-reset')).toMatchObject({
      sessionsEnded: 1,
      apiTokens: 0,
      calendarFeed: false,
    });

    const log = lines.join('\n');
    for (const secret of [
      user.password,
      newPassword,
      'reset password 1',
      resetToken,
      verification,
      SMTP_PASSWORD,
      other.json<{ accessToken: string }>().accessToken,
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});
