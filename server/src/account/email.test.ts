import { accountApi, authApi } from '@tally/contract';
import { describe, expect, it } from 'vitest';
import { useAccountApp } from '../test/account-app.js';
import { apiClient } from '../test/api-client.js';
import { registerUser, uniqueName } from '../test/helpers.js';
import { linkToken } from '../test/local-smtp.js';

/**
 * The account's e-mail address: the verification link and a change of address, against a real
 * SMTP server on loopback: what a client sees, and what arrives in the mailbox.
 */

const HOUR = 60 * 60 * 1000;
const app = useAccountApp();
const { login, account, newUser } = app;

describe('registration and e-mail verification', () => {
  it('sends a verification link at registration, which verifies the address once', async () => {
    const user = await registerUser(app.ctx.app);
    const mail = await app.smtp.take(user.email);
    expect(mail.subject).toBe('Confirm your e-mail address for Tally');
    expect(mail.from).toBe('tally@example.com');
    expect(mail.text).toContain(`Hello ${user.username},`);
    expect(mail.text).toContain('https://tally.example.com/verify-email#token=');
    expect(mail.html).toContain('<a href="https://tally.example.com/verify-email#token=');
    const token = linkToken(mail, '/verify-email');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const verify = () => apiClient(app.ctx.app, null)(authApi.verifyEmail, { body: { token } });
    expect((await verify()).statusCode).toBe(204);
    expect((await account(user)).emailVerified).toBe(true);
    const again = await verify();
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      error: 'token is not valid: the link was already used, has expired or is unknown',
    });
  });

  it('stores only a hash of the token', async () => {
    const user = await registerUser(app.ctx.app);
    const token = linkToken(await app.smtp.take(user.email), '/verify-email');
    const rows = await app.ctx.database.handle.db
      .selectFrom('email_tokens')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]).toMatchObject({ purpose: 'verify-email', used_at: null });
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses an unknown token and one older than 7 days', async () => {
    const unknown = await apiClient(app.ctx.app, null)(authApi.verifyEmail, {
      body: { token: 'A'.repeat(43) },
    });
    expect(unknown.statusCode).toBe(400);

    const user = await registerUser(app.ctx.app);
    const token = linkToken(await app.smtp.take(user.email), '/verify-email');
    app.ctx.clock.advance(7 * 24 * HOUR);
    const late = await apiClient(app.ctx.app, null)(authApi.verifyEmail, { body: { token } });
    expect(late.statusCode).toBe(400);
    expect(late.json<{ error: string }>().error).toMatch(/^token is not valid/);
  });

  it('names the field of a malformed token', async () => {
    const response = await apiClient(app.ctx.app, null)(authApi.verifyEmail, {
      body: { token: 'not a token!' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toMatch(/token/);
  });

  it('resends the link on request, 3 times an hour, then 429 with Retry-After', async () => {
    const user = await newUser();
    const resend = () => apiClient(app.ctx.app, user)(accountApi.resendVerification);
    for (let i = 0; i < 3; i++) {
      const response = await resend();
      expect(response.statusCode).toBe(202);
      expect(response.body).toBe('');
      // Sent before the answer: the mail is there already.
      expect(linkToken(await app.smtp.take(user.email, 0), '/verify-email')).toMatch(/^[\w-]{43}$/);
    }
    const limited = await resend();
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ error: string }>().error).toBe(
      'Too many verification e-mails - try again in 60 minutes',
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    app.ctx.clock.advance(HOUR);
    // An hour on, the access token has expired too: a fresh sign-in.
    const later = await login(user);
    const response = await apiClient(app.ctx.app, later)(accountApi.resendVerification);
    expect(response.statusCode).toBe(202);
    await app.smtp.take(user.email);
  });

  it("writes the link in the account's language, subject, text and HTML, else in English", async () => {
    const user = await newUser();
    const call = apiClient(app.ctx.app, user);
    await call(accountApi.setPreferences, { body: { language: 'de' } });
    expect((await call(accountApi.resendVerification)).statusCode).toBe(202);
    const german = await app.smtp.take(user.email);
    expect(german.subject).toBe('Bestätige deine E-Mail-Adresse für Tally');
    for (const part of [german.text, german.html]) {
      expect(part).toContain(`Hallo ${user.username},`);
      expect(part).toContain(`bitte bestätige, dass ${user.email} deine E-Mail-Adresse`);
      expect(part).toContain('Der Link funktioniert einmal, 7 Tage lang.');
      expect(part).not.toContain('Hello');
    }
    expect(linkToken(german, '/verify-email')).toMatch(/^[\w-]{43}$/);

    // Arabic is written right to left.
    await call(accountApi.setPreferences, { body: { language: 'ar' } });
    await call(accountApi.resendVerification);
    const arabic = await app.smtp.take(user.email);
    expect(arabic.subject).toBe('أكّد عنوان بريدك الإلكتروني في Tally');
    expect(arabic.html).toMatch(/^<div dir="rtl" lang="ar">/);

    // A language Tally does not speak: English, as before there were languages.
    await call(accountApi.setPreferences, { body: { language: 'nl' } });
    await call(accountApi.resendVerification);
    const english = await app.smtp.take(user.email);
    expect(english.subject).toBe('Confirm your e-mail address for Tally');
    expect(english.text).toContain(`Hello ${user.username},`);
  });

  it('answers 409 to a resend when the address is verified already', async () => {
    const user = await registerUser(app.ctx.app);
    const token = linkToken(await app.smtp.take(user.email), '/verify-email');
    await apiClient(app.ctx.app, null)(authApi.verifyEmail, { body: { token } });
    const response = await apiClient(app.ctx.app, user)(accountApi.resendVerification);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'Your e-mail address is already verified' });
  });

  it('answers 503 when the mail cannot be sent, and registration still succeeds then', async () => {
    app.smtp.refuse = true;
    try {
      const user = await registerUser(app.ctx.app); // throws unless 201
      const response = await apiClient(app.ctx.app, user)(accountApi.resendVerification);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ error: 'The e-mail could not be sent - try again later' });
    } finally {
      app.smtp.refuse = false;
    }
  });
});

describe('PUT /api/account/email', () => {
  const change = (user: { token: string }, body: object) =>
    apiClient(app.ctx.app, user).unchecked(accountApi.changeEmail, { body });

  it('changes the address, which is unverified until the link sent to it is followed', async () => {
    const user = await registerUser(app.ctx.app);
    const first = linkToken(await app.smtp.take(user.email), '/verify-email');
    await apiClient(app.ctx.app, null)(authApi.verifyEmail, { body: { token: first } });
    const oldLink = await apiClient(app.ctx.app, user)(accountApi.resendVerification);
    expect(oldLink.statusCode).toBe(409); // verified

    const email = `${uniqueName('moved')}@example.org`;
    const response = await change(user, { email, currentPassword: user.password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email, emailVerified: false, hasPassword: true });

    const mail = await app.smtp.take(email);
    expect((await account(user)).emailVerified).toBe(false);
    await apiClient(app.ctx.app, null)(authApi.verifyEmail, {
      body: { token: linkToken(mail, '/verify-email') },
    });
    expect(await account(user)).toMatchObject({ email, emailVerified: true });
  });

  it('does not let a link sent to the old address verify the new one', async () => {
    const user = await registerUser(app.ctx.app);
    const oldToken = linkToken(await app.smtp.take(user.email), '/verify-email');
    const email = `${uniqueName('new')}@example.org`;
    await change(user, { email, currentPassword: user.password });
    await app.smtp.take(email);
    const response = await apiClient(app.ctx.app, null)(authApi.verifyEmail, {
      body: { token: oldToken },
    });
    expect(response.statusCode).toBe(400);
    expect((await account(user)).emailVerified).toBe(false);
  });

  it('answers 409 for an address another account has, ignoring case', async () => {
    const user = await newUser();
    const other = await newUser();
    const response = await change(user, {
      email: other.email.toUpperCase(),
      currentPassword: user.password,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'That e-mail address is already registered' });
    expect((await account(user)).email).toBe(user.email);
  });

  it('sends at most 3 verification e-mails an hour per account, counting resends, then 429 writing nothing', async () => {
    const user = await newUser();
    const resend = await apiClient(app.ctx.app, user)(accountApi.resendVerification);
    expect(resend.statusCode).toBe(202);
    await app.smtp.take(user.email);
    const addresses = [1, 2, 3].map(() => `${uniqueName('moved')}@example.org`);
    for (const email of addresses.slice(0, 2)) {
      expect((await change(user, { email, currentPassword: user.password })).statusCode).toBe(200);
      await app.smtp.take(email);
    }
    const limited = await change(user, { email: addresses[2], currentPassword: user.password });
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ error: string }>().error).toBe(
      'Too many verification e-mails - try again in 60 minutes',
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await account(user)).email).toBe(addresses[1]);
    app.ctx.clock.advance(HOUR);
    const later = await login(user);
    const email = addresses[2] as string;
    expect((await change(later, { email, currentPassword: user.password })).statusCode).toBe(200);
    await app.smtp.take(email);
  });

  it('sends at most 3 verification e-mails an hour to one address, whichever accounts ask', async () => {
    const target = `${uniqueName('target')}@example.org`;
    const [first, second] = [await newUser(), await newUser()];
    expect(
      (await change(first, { email: target, currentPassword: first.password })).statusCode,
    ).toBe(200);
    for (let i = 0; i < 2; i++) {
      const resend = await apiClient(app.ctx.app, first)(accountApi.resendVerification);
      expect(resend.statusCode).toBe(202);
    }
    for (let i = 0; i < 3; i++) await app.smtp.take(target);
    // The address is free again, but has had its 3 e-mails this hour.
    const elsewhere = `${uniqueName('gone')}@example.org`.toLowerCase();
    await app.ctx.database.handle.db
      .updateTable('users')
      .set({ email: elsewhere, email_lower: elsewhere })
      .where('username', '=', first.username)
      .execute();
    const limited = await change(second, { email: target, currentPassword: second.password });
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ error: string }>().error).toBe(
      'Too many verification e-mails to this address - try again in 60 minutes',
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await account(second)).email).toBe(second.email);
  });

  it('needs the current password, and a valid address', async () => {
    const user = await newUser();
    const wrong = await change(user, { email: 'x@example.org', currentPassword: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'currentPassword is not correct' });
    const bad = await change(user, { email: 'not an address', currentPassword: user.password });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/^email/);
    expect((await account(user)).email).toBe(user.email);
  });
});
