import { accountApi, authApi, calendarApi, systemApi, todosApi, tokensApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  refreshCookieOf,
  registerUser,
  type TestContext,
  type TestUser,
  uniqueName,
} from '../test/helpers.js';
import { linkToken, type LocalSmtp, startLocalSmtp } from '../test/local-smtp.js';
import { sweepTokens } from './email-links.js';

/**
 * A forgotten password, reset by an e-mailed link: the request answers the same for every
 * address, the link works once and for an hour, and using it ends every session.
 */

const HOUR = 60 * 60 * 1000;
let smtp: LocalSmtp;
let ctx: TestContext;

beforeAll(async () => {
  smtp = await startLocalSmtp();
  ctx = await createTestApp({
    config: { smtpUrl: smtp.url, mailFrom: 'tally@example.com' },
  });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const requestReset = (email: string) =>
  apiClient(ctx.app, null)(authApi.requestPasswordReset, { body: { email } });
const confirm = (token: string, password: string) =>
  apiClient(ctx.app, null)(authApi.resetPassword, { body: { token, password } });
const login = (user: TestUser, password: string) =>
  apiClient(ctx.app, null)(authApi.login, { body: { username: user.username, password } });
const todos = (user: { token: string }) => apiClient(ctx.app, user)(todosApi.list);

async function newUser(): Promise<TestUser> {
  const user = await registerUser(ctx.app);
  await smtp.take(user.email); // the verification link of registration
  return user;
}

describe('POST /api/auth/password-reset', () => {
  it('answers 202 with no body for a registered and an unknown address alike', async () => {
    const user = await newUser();
    const known = await requestReset(user.email.toUpperCase());
    const unknown = await requestReset(`${uniqueName('nobody')}@example.com`);
    for (const response of [known, unknown]) {
      expect(response.statusCode).toBe(202);
      expect(response.body).toBe('');
    }
    const headers = (h: Record<string, unknown>) =>
      Object.keys(h)
        .filter((k) => !['date', 'x-ratelimit-remaining', 'x-ratelimit-reset'].includes(k))
        .sort();
    expect(headers(unknown.headers)).toEqual(headers(known.headers));

    const mail = await smtp.take(user.email);
    expect(mail.subject).toBe('Reset your Tally password');
    expect(mail.text).toContain('http://localhost:3000/reset-password#token=');
    expect(mail.html).toContain('/reset-password#token=');
  });

  it('answers before it looks the address up or sends anything, the same for every address', async () => {
    const user = await newUser();
    // Every send waits at the mailbox: an answer that waited for the lookup and the mail, as one
    // for a registered address would, could not arrive.
    const release = smtp.hold();
    try {
      const known = await requestReset(user.email);
      const unknown = await requestReset(`${uniqueName('nobody')}@example.com`);
      for (const response of [known, unknown]) {
        expect(response.statusCode).toBe(202);
        expect(response.body).toBe('');
      }
      const resets = smtp.received.filter(
        (mail) =>
          mail.subject === 'Reset your Tally password' &&
          mail.to.includes(user.email.toLowerCase()),
      );
      expect(resets).toEqual([]);
    } finally {
      release();
    }
    // The work happens after the answer: the link arrives once the mailbox takes it.
    await ctx.app.settleEmail();
    expect(linkToken(await smtp.take(user.email, 0), '/reset-password')).toMatch(/^[\w-]{43}$/);
  });

  it('sends at most 3 reset links an hour to an account, however often someone asks', async () => {
    const user = await newUser();
    for (let i = 0; i < 5; i++) {
      expect((await requestReset(user.email)).statusCode).toBe(202);
      await ctx.app.settleEmail();
    }
    expect(smtp.received.filter((mail) => mail.to.includes(user.email.toLowerCase()))).toHaveLength(
      1 + 3,
    );
  });

  it('validates the address like registration does', async () => {
    const response = await requestReset('not an address');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toMatch(/^email/);
  });
});

describe('POST /api/auth/password-reset/confirm', () => {
  it('sets the password, verifies the address and ends every session', async () => {
    const user = await newUser();
    const renewed = await apiClient(ctx.app, null)(authApi.refresh, {
      headers: { cookie: user.refreshCookie },
    });
    const other = { token: renewed.json<{ accessToken: string }>().accessToken };
    const otherCookie = refreshCookieOf(renewed);
    await requestReset(user.email);
    const token = linkToken(await smtp.take(user.email), '/reset-password');

    const response = await confirm(token, 'my brand new password');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await todos(user)).statusCode).toBe(401);
    expect((await todos(other)).statusCode).toBe(401);
    const refresh = await apiClient(ctx.app, null)(authApi.refresh, {
      headers: { cookie: otherCookie },
    });
    expect(refresh.statusCode).toBe(401);

    expect((await login(user, user.password)).statusCode).toBe(401);
    const fresh = await login(user, 'my brand new password');
    expect(fresh.statusCode).toBe(200);
    const account = await apiClient(ctx.app, {
      token: fresh.json<{ accessToken: string }>().accessToken,
    })(accountApi.get);
    expect(account.json()).toMatchObject({ emailVerified: true, hasPassword: true });

    const row = await ctx.database.handle.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('revokes every API token and turns the calendar feed off, says so in the mail, and keeps Google as it was', async () => {
    const user = await newUser();
    const call = apiClient(ctx.app, user);
    const made = await call(tokensApi.create, {
      body: { name: 'Script', scope: 'read-write', expiresInDays: null },
    });
    const apiToken = made.json<{ token: string }>().token;
    const feedPath = (await call(calendarApi.regenerate)).json<{
      path: string;
    }>().path;
    expect((await todos({ token: apiToken })).statusCode).toBe(200);

    await requestReset(user.email);
    const mail = await smtp.take(user.email);
    expect(mail.text).toMatch(/revokes every personal API token/);
    expect(mail.text).toMatch(/turns the calendar feed off/);
    expect(mail.text).toMatch(
      /A linked Google or single sign-on account stays linked if your address was verified before/,
    );
    expect(
      (await confirm(linkToken(mail, '/reset-password'), 'my brand new password')).statusCode,
    ).toBe(204);

    expect((await todos({ token: apiToken })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(404);
    const fresh = {
      token: (await login(user, 'my brand new password')).json<{ accessToken: string }>()
        .accessToken,
    };
    const again = apiClient(ctx.app, fresh);
    expect((await again(tokensApi.list)).json()).toEqual([]);
    expect((await again(calendarApi.get)).json()).toBeNull();
    // Settings says when the reset was, and so what it ended.
    expect((await again(accountApi.get)).json()).toMatchObject({
      passwordResetAt: new Date(ctx.clock.now()).toISOString(),
    });
  });

  it('lets the owner in at once with the new password after failed logins locked the account', async () => {
    const limited = await createTestApp({
      database: ctx.database,
      config: { smtpUrl: smtp.url, mailFrom: 'tally@example.com', loginAttemptsPerAccount: 2 },
    });
    try {
      const user = await registerUser(limited.app);
      await smtp.take(user.email);
      const attempt = (password: string) =>
        apiClient(limited.app, null)(authApi.login, {
          body: { username: user.username, password },
        });
      for (let i = 0; i < 2; i++) expect((await attempt('not my password')).statusCode).toBe(401);
      expect((await attempt('not my password')).statusCode).toBe(429);

      await apiClient(limited.app, null)(authApi.requestPasswordReset, {
        body: { email: user.email },
      });
      const token = linkToken(await smtp.take(user.email), '/reset-password');
      const reset = await apiClient(limited.app, null)(authApi.resetPassword, {
        body: { token, password: 'remembered at last' },
      });
      expect(reset.statusCode).toBe(204);
      expect((await attempt('remembered at last')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('works once', async () => {
    const user = await newUser();
    await requestReset(user.email);
    const token = linkToken(await smtp.take(user.email), '/reset-password');
    expect((await confirm(token, 'first new password')).statusCode).toBe(204);
    const again = await confirm(token, 'second new password');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      error: 'token is not valid: the link was already used, has expired or is unknown',
    });
    expect((await login(user, 'first new password')).statusCode).toBe(200);
  });

  it('refuses a common password without spending the link, which then takes a better one', async () => {
    const user = await newUser();
    await requestReset(user.email);
    const token = linkToken(await smtp.take(user.email), '/reset-password');
    const common = await confirm(token, 'password1');
    expect(common.statusCode).toBe(400);
    expect(common.json()).toEqual({ error: 'password is too common - choose another' });
    expect((await login(user, user.password)).statusCode).toBe(200);
    expect((await confirm(token, 'an uncommon password')).statusCode).toBe(204);
    expect((await login(user, 'an uncommon password')).statusCode).toBe(200);
  });

  it('refuses a password built on the account’s names without spending the link', async () => {
    const user = await newUser();
    await requestReset(user.email);
    const token = linkToken(await smtp.take(user.email), '/reset-password');
    for (const password of ['tally123', `${user.username}2026`]) {
      const refused = await confirm(token, password);
      expect(refused.statusCode, password).toBe(400);
      expect(refused.json()).toEqual({
        error:
          'password is built on your username, your e-mail address or the name Tally - choose another',
      });
    }
    expect((await login(user, user.password)).statusCode).toBe(200);
    expect((await confirm(token, 'an uncommon password')).statusCode).toBe(204);
  });

  it('works for an hour only', async () => {
    const user = await newUser();
    await requestReset(user.email);
    const token = linkToken(await smtp.take(user.email), '/reset-password');
    ctx.clock.advance(HOUR);
    expect((await confirm(token, 'too late password')).statusCode).toBe(400);
    expect((await login(user, user.password)).statusCode).toBe(200);
  });

  it('refuses an unknown token, and a verification token', async () => {
    expect((await confirm('B'.repeat(43), 'whatever password')).statusCode).toBe(400);
    const user = await registerUser(ctx.app);
    const verification = linkToken(await smtp.take(user.email), '/verify-email');
    expect((await confirm(verification, 'whatever password')).statusCode).toBe(400);
    expect((await login(user, user.password)).statusCode).toBe(200);
  });

  it('validates the new password like registration', async () => {
    const response = await confirm('C'.repeat(43), 'short');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toMatch(/^password/);
  });

  it('unlinks Google and single sign-on from an address never verified, and keeps them on a verified one', async () => {
    const outcome: Record<string, unknown> = {};
    for (const verified of [false, true]) {
      const user = await newUser();
      await ctx.database.handle.db
        .updateTable('users')
        .set({
          google_subject: uniqueName('g'),
          oidc_issuer: 'https://idp.example',
          oidc_subject: uniqueName('o'),
          email_verified_at: verified ? ctx.clock.now() : null,
        })
        .where('id', '=', user.id)
        .execute();
      await requestReset(user.email);
      const token = linkToken(await smtp.take(user.email), '/reset-password');
      expect((await confirm(token, 'the owner’s own password')).statusCode).toBe(204);
      const signedIn = await login(user, 'the owner’s own password');
      const account = await apiClient(ctx.app, {
        token: signedIn.json<{ accessToken: string }>().accessToken,
      })(accountApi.get);
      outcome[verified ? 'verified before' : 'never verified'] = account.json();
    }
    expect(outcome).toMatchObject({
      'never verified': { emailVerified: true, googleLinked: false, oidcLinked: false },
      'verified before': { emailVerified: true, googleLinked: true, oidcLinked: true },
    });
  });

  it('gives a Google-only account its first password', async () => {
    const name = uniqueName('g');
    const email = `${name}@gmail.com`;
    await ctx.database.handle.db
      .insertInto('users')
      .values({
        username: name,
        username_lower: name.toLowerCase(),
        email,
        email_lower: email,
        password_hash: null,
        google_subject: name,
        created_at: ctx.clock.now(),
        email_verified_at: ctx.clock.now(),
      })
      .execute();
    await requestReset(email);
    const token = linkToken(await smtp.take(email), '/reset-password');
    expect((await confirm(token, 'finally a password')).statusCode).toBe(204);
    const response = await apiClient(ctx.app, null)(authApi.login, {
      body: { username: name, password: 'finally a password' },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('without e-mail configured', () => {
  let plain: TestContext;
  beforeAll(async () => {
    plain = await createTestApp();
  });
  afterAll(async () => plain.close());

  it('sends nothing, says so in /api/config, and still answers 202 to a reset request', async () => {
    const before = smtp.received.length;
    const user = await registerUser(plain.app);
    const config = await apiClient(plain.app, null)(systemApi.config);
    expect(config.json()).toMatchObject({ passwordResetByEmail: false, registration: 'open' });
    const reset = await apiClient(plain.app, null)(authApi.requestPasswordReset, {
      body: { email: user.email },
    });
    expect(reset.statusCode).toBe(202);
    const resend = await apiClient(plain.app, user)(accountApi.resendVerification);
    expect(resend.statusCode).toBe(503);
    expect(resend.json()).toEqual({ error: 'This server does not send e-mail' });
    await plain.app.settleEmail();
    expect(smtp.received.length).toBe(before);
    const tokens = await plain.database.handle.db.selectFrom('email_tokens').select('id').execute();
    expect(tokens).toEqual([]);
  });

  it('says in /api/config when e-mail is on', async () => {
    const config = await apiClient(ctx.app, null)(systemApi.config);
    expect(config.json()).toMatchObject({ passwordResetByEmail: true });
  });
});

describe('the e-mail token sweep', () => {
  const tokensOf = (userId: number) =>
    ctx.database.handle.db
      .selectFrom('email_tokens')
      .select(['purpose', 'used_at'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();

  it('deletes spent and expired link tokens and keeps the ones that still work', async () => {
    const user = await newUser(); // its verification link stays unused (7 days)
    await requestReset(user.email);
    const spent = linkToken(await smtp.take(user.email), '/reset-password');
    expect((await confirm(spent, 'first new password')).statusCode).toBe(204);
    await requestReset(user.email);
    const live = linkToken(await smtp.take(user.email), '/reset-password');
    expect(await tokensOf(user.id)).toHaveLength(3);

    await sweepTokens(ctx.database.handle.db, ctx.clock.now());
    expect(await tokensOf(user.id)).toEqual([
      { purpose: 'verify-email', used_at: null },
      { purpose: 'reset-password', used_at: null },
    ]);
    // A swept link answers as a used one did.
    expect((await confirm(spent, 'a second new password')).json()).toEqual({
      error: 'token is not valid: the link was already used, has expired or is unknown',
    });

    ctx.clock.advance(HOUR); // the reset link's hour is over; the verification link has 7 days
    await sweepTokens(ctx.database.handle.db, ctx.clock.now());
    expect(await tokensOf(user.id)).toEqual([{ purpose: 'verify-email', used_at: null }]);
    expect((await confirm(live, 'a password too late')).statusCode).toBe(400);
  });
});
