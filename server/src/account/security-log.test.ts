import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, registerUser, type TestContext } from '../test/helpers.js';
import { linkToken, type LocalSmtp, SMTP_PASSWORD, startLocalSmtp } from '../test/local-smtp.js';

/**
 * The security log (issue 11, item 10): every change that matters to an account's safety is a
 * warn line naming the account and the address it came from, and no line holds a password, a
 * token or the SMTP credentials.
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
    const call = (options: Parameters<ReturnType<typeof as>>[0]) =>
      as(ctx.app, user)({ ...options, remoteAddress: ip });
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.username, password: user.password },
    });
    expect(login.statusCode).toBe(200);

    const newPassword = 'a very new password';
    const steps = [
      await call({
        method: 'PUT',
        url: '/api/account/password',
        payload: { currentPassword: user.password, newPassword },
      }),
      await call({
        method: 'PUT',
        url: '/api/account/email',
        payload: { email: `moved-${user.email}`, currentPassword: newPassword },
      }),
      await call({ method: 'DELETE', url: '/api/account/sessions' }),
      await call({
        method: 'POST',
        url: '/api/account/reauthenticate',
        payload: { password: newPassword },
      }),
    ];
    for (const step of steps) expect(step.statusCode).toBeLessThan(300);
    const other = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.username, password: newPassword },
    });
    const sessions = (await call({ method: 'GET', url: '/api/account/sessions' })).json<
      { id: string; current: boolean }[]
    >();
    const ended = await call({
      method: 'DELETE',
      url: `/api/account/sessions/${sessions.find((s) => !s.current)?.id ?? ''}`,
    });
    expect(ended.statusCode).toBe(204);

    await smtp.take(`moved-${user.email}`); // the new address's verification link
    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: `moved-${user.email}` },
      remoteAddress: ip,
    });
    const resetToken = linkToken(await smtp.take(`moved-${user.email}`), '/reset-password');
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token: resetToken, password: 'reset password 1' },
      remoteAddress: ip,
    });
    expect(reset.statusCode).toBe(204);
    const fresh = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.username, password: 'reset password 1' },
    });
    const removed = await as(ctx.app, {
      token: fresh.json<{ accessToken: string }>().accessToken,
    })({
      method: 'DELETE',
      url: '/api/account',
      payload: { password: 'reset password 1' },
      remoteAddress: ip,
    });
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
