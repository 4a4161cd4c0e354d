import { authApi, calendarApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext } from '../test/helpers.js';
import { type LocalSmtp, startLocalSmtp } from '../test/local-smtp.js';

/**
 * Secrets that travel in URLs (decision 073): the calendar feed's secret and the tokens of
 * e-mailed links never reach a log line or a metrics label, and the e-mailed links keep their
 * token in the fragment, which browsers do not send to the server.
 */

const METRICS_TOKEN = 'metrics-token-for-the-redaction-test';
const lines: string[] = [];
let smtp: LocalSmtp;
let ctx: TestContext;

beforeAll(async () => {
  smtp = await startLocalSmtp();
  ctx = await createTestApp({
    config: { smtpUrl: smtp.url, mailFrom: 'tally@example.com', metricsToken: METRICS_TOKEN },
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
  });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const urlsLogged = () =>
  lines
    .map((line) => JSON.parse(line) as { req?: { url?: string } })
    .flatMap((line) => (line.req?.url === undefined ? [] : [line.req.url]));

describe('secrets in URLs', () => {
  it('logs the calendar feed as /api/calendar/[redacted].ics and labels its metrics with the route', async () => {
    const user = await registerUser(ctx.app);
    const feed = await apiClient(ctx.app, user)(calendarApi.regenerate);
    expect(feed.statusCode, feed.body).toBe(201);
    const { path } = feed.json<{ path: string }>();
    const secret = /\/api\/calendar\/([^/]+)\.ics$/.exec(path)?.[1] ?? '';
    expect(secret.length).toBeGreaterThan(16);

    expect((await ctx.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    const unknown = await apiClient(ctx.app, null)(calendarApi.feed, {
      params: { secret: 'guessed-secret' },
    });
    expect(unknown.statusCode).toBe(404);
    const metrics = await ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });

    expect(urlsLogged()).toContain('/api/calendar/[redacted].ics');
    expect(lines.join('\n')).not.toContain(secret);
    expect(lines.join('\n')).not.toContain('guessed-secret');
    expect(metrics.body).toContain('route="/api/calendar/:secret.ics"');
    expect(metrics.body).not.toContain(secret);
  });

  it('logs token= query parameters as [redacted], on pages and API paths alike', async () => {
    const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcdEF';
    for (const url of [
      `/reset-password?token=${token}`,
      `/verify-email?token=${token}&from=mail`,
      `/api/todos?TOKEN=${token}`,
    ]) {
      await ctx.app.inject({ method: 'GET', url });
    }
    expect(urlsLogged()).toEqual(
      expect.arrayContaining([
        '/reset-password?token=[redacted]',
        '/verify-email?token=[redacted]&from=mail',
        '/api/todos?TOKEN=[redacted]',
      ]),
    );
    expect(lines.join('\n')).not.toContain(token);
  });

  it('logs the code and state of a single sign-on callback as [redacted]', async () => {
    const code = 'sso-code-Zx81Jq0aPZr7tWm3Kd9LbYc2';
    const state = 'sso-state-Hq4nV7sLw2Xe9Rt5Uy1Io8Pa';
    const answer = await ctx.app.inject({
      method: 'GET',
      url: `/api/auth/oidc/callback?code=${code}&state=${state}&iss=https%3A%2F%2Fidp.example`,
    });
    expect(answer.statusCode).toBe(303);
    expect(urlsLogged()).toContain(
      '/api/auth/oidc/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp.example',
    );
    expect(lines.join('\n')).not.toContain(code);
    expect(lines.join('\n')).not.toContain(state);
  });

  it('e-mails verification and reset links with the token in the fragment', async () => {
    const user = await registerUser(ctx.app);
    const verification = await smtp.take(user.email);
    const reset = await apiClient(ctx.app, null)(authApi.requestPasswordReset, {
      body: { email: user.email },
    });
    expect(reset.statusCode).toBe(202);
    const resetMail = await smtp.take(user.email);

    expect(verification.text).toMatch(/https?:\/\/[^\s/]+\/verify-email#token=[\w-]{20,}/);
    expect(resetMail.text).toMatch(/https?:\/\/[^\s/]+\/reset-password#token=[\w-]{20,}/);
    for (const mail of [verification, resetMail]) {
      expect(mail.text).not.toContain('?token=');
      expect(mail.html).not.toContain('?token=');
    }
  });
});
