import { accountApi, AccountExportSchema, authApi, groupsApi, todosApi } from '@tally/contract';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
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
import { snapshotUser } from '../test/security.js';

// ajv-formats ships CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * The account calls of Settings (docs/product.md, Accounts), against a real SMTP server on
 * loopback: what a client sees, and what arrives in the mailbox.
 */

const HOUR = 60 * 60 * 1000;
let smtp: LocalSmtp;
let ctx: TestContext;

beforeAll(async () => {
  smtp = await startLocalSmtp();
  ctx = await createTestApp({
    config: {
      smtpUrl: smtp.url,
      mailFrom: 'Tally <tally@example.com>',
      publicUrl: 'https://tally.example.com',
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const login = async (user: TestUser) => {
  const response = await apiClient(ctx.app, null)(authApi.login, {
    body: { username: user.username, password: user.password },
    headers: { 'user-agent': 'Second device' },
  });
  expect(response.statusCode).toBe(200);
  return {
    token: response.json<{ accessToken: string }>().accessToken,
    cookie: refreshCookieOf(response),
  };
};
const todos = (user: { token: string }) => apiClient(ctx.app, user)(todosApi.list);
const account = async (user: { token: string }) =>
  (await apiClient(ctx.app, user)(accountApi.get)).json<{
    email: string;
    emailVerified: boolean;
  }>();

/** A new user whose registration mail has arrived (and is out of the way). */
async function newUser(): Promise<TestUser> {
  const user = await registerUser(ctx.app);
  await smtp.take(user.email);
  return user;
}

describe('GET /api/account', () => {
  it('describes the signed-in account, without secrets', async () => {
    const user = await newUser();
    const response = await apiClient(ctx.app, user)(accountApi.get);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      username: user.username,
      email: user.email,
      emailVerified: false,
      hasPassword: true,
      googleLinked: false,
      oidcLinked: false,
      createdAt: new Date(ctx.clock.now()).toISOString(),
      // Registered without an x-time-zone header: no zone to adopt.
      timeZone: null,
      language: null,
      weekStart: null,
      // The first account of the database: its operator.
      operator: true,
    });
  });

  it('needs a bearer token', async () => {
    const response = await apiClient(ctx.app, null)(accountApi.get);
    expect(response.statusCode).toBe(401);
  });
});

describe('registration and e-mail verification', () => {
  it('sends a verification link at registration, which verifies the address once', async () => {
    const user = await registerUser(ctx.app);
    const mail = await smtp.take(user.email);
    expect(mail.subject).toBe('Confirm your e-mail address for Tally');
    expect(mail.from).toBe('tally@example.com');
    expect(mail.text).toContain(`Hello ${user.username},`);
    expect(mail.text).toContain('https://tally.example.com/verify-email#token=');
    expect(mail.html).toContain('<a href="https://tally.example.com/verify-email#token=');
    const token = linkToken(mail, '/verify-email');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const verify = () => apiClient(ctx.app, null)(authApi.verifyEmail, { body: { token } });
    expect((await verify()).statusCode).toBe(204);
    expect((await account(user)).emailVerified).toBe(true);
    const again = await verify();
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      error: 'token is not valid: the link was already used, has expired or is unknown',
    });
  });

  it('stores only a hash of the token', async () => {
    const user = await registerUser(ctx.app);
    const token = linkToken(await smtp.take(user.email), '/verify-email');
    const rows = await ctx.database.handle.db
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
    const unknown = await apiClient(ctx.app, null)(authApi.verifyEmail, {
      body: { token: 'A'.repeat(43) },
    });
    expect(unknown.statusCode).toBe(400);

    const user = await registerUser(ctx.app);
    const token = linkToken(await smtp.take(user.email), '/verify-email');
    ctx.clock.advance(7 * 24 * HOUR);
    const late = await apiClient(ctx.app, null)(authApi.verifyEmail, { body: { token } });
    expect(late.statusCode).toBe(400);
    expect(late.json<{ error: string }>().error).toMatch(/^token is not valid/);
  });

  it('names the field of a malformed token', async () => {
    const response = await apiClient(ctx.app, null)(authApi.verifyEmail, {
      body: { token: 'not a token!' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toMatch(/token/);
  });

  it('resends the link on request, 3 times an hour, then 429 with Retry-After', async () => {
    const user = await newUser();
    const resend = () => apiClient(ctx.app, user)(accountApi.resendVerification);
    for (let i = 0; i < 3; i++) {
      const response = await resend();
      expect(response.statusCode).toBe(202);
      expect(response.body).toBe('');
      // Sent before the answer: the mail is there already.
      expect(linkToken(await smtp.take(user.email, 0), '/verify-email')).toMatch(/^[\w-]{43}$/);
    }
    const limited = await resend();
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ error: string }>().error).toBe(
      'Too many verification e-mails - try again in 60 minutes',
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    ctx.clock.advance(HOUR);
    // An hour on, the access token has expired too: a fresh sign-in.
    const later = await login(user);
    const response = await apiClient(ctx.app, later)(accountApi.resendVerification);
    expect(response.statusCode).toBe(202);
    await smtp.take(user.email);
  });

  it('answers 409 to a resend when the address is verified already', async () => {
    const user = await registerUser(ctx.app);
    const token = linkToken(await smtp.take(user.email), '/verify-email');
    await apiClient(ctx.app, null)(authApi.verifyEmail, { body: { token } });
    const response = await apiClient(ctx.app, user)(accountApi.resendVerification);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'Your e-mail address is already verified' });
  });

  it('answers 503 when the mail cannot be sent, and registration still succeeds then', async () => {
    smtp.refuse = true;
    try {
      const user = await registerUser(ctx.app); // throws unless 201
      const response = await apiClient(ctx.app, user)(accountApi.resendVerification);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ error: 'The e-mail could not be sent - try again later' });
    } finally {
      smtp.refuse = false;
    }
  });
});

describe('PUT /api/account/password', () => {
  const change = (user: { token: string }, body: object) =>
    apiClient(ctx.app, user).unchecked(accountApi.changePassword, { body });

  it('changes the password and ends every other session at once, keeping this one', async () => {
    const user = await newUser();
    const other = await login(user);
    const response = await change(user, {
      currentPassword: user.password,
      newPassword: 'a new password 42',
    });
    expect(response.statusCode).toBe(204);
    expect((await todos(user)).statusCode).toBe(200);
    expect((await todos(other)).statusCode).toBe(401);
    const refresh = await apiClient(ctx.app, null)(authApi.refresh, {
      headers: { cookie: other.cookie },
    });
    expect(refresh.statusCode).toBe(401);

    const old = await apiClient(ctx.app, null)(authApi.login, {
      body: { username: user.username, password: user.password },
    });
    expect(old.statusCode).toBe(401);
    const fresh = await apiClient(ctx.app, null)(authApi.login, {
      body: { username: user.username, password: 'a new password 42' },
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('refuses a wrong current password with a 400 naming it (a 401 would end the browser session)', async () => {
    const user = await newUser();
    const response = await change(user, { currentPassword: 'wrong!', newPassword: 'whatever 123' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'currentPassword is not correct' });
    expect((await todos(user)).statusCode).toBe(200);
  });

  it('refuses a common new password with a 400 naming newPassword, keeping the old one', async () => {
    const user = await newUser();
    const response = await change(user, {
      currentPassword: user.password,
      newPassword: 'iloveyou',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'newPassword is too common - choose another' });
    expect((await todos(user)).statusCode).toBe(200);
    expect((await login(user)).token).toBeTruthy();
  });

  it('refuses a new password built on the username or the name Tally, keeping the old one', async () => {
    const user = await newUser();
    for (const newPassword of ['tallytally', `${user.username}!!`]) {
      const response = await change(user, { currentPassword: user.password, newPassword });
      expect(response.statusCode, newPassword).toBe(400);
      expect(response.json()).toEqual({
        error:
          'newPassword is built on your username, your e-mail address or the name Tally - choose another',
      });
    }
    expect((await login(user)).token).toBeTruthy();
  });

  it('validates the new password like registration', async () => {
    const user = await newUser();
    const response = await change(user, { currentPassword: user.password, newPassword: 'short' });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toMatch(/newPassword/);
  });

  it('allows 10 wrong passwords per 15 minutes, then answers 429', async () => {
    const user = await newUser();
    for (let i = 0; i < 10; i++) {
      const wrong = await change(user, {
        currentPassword: `wrong ${i}`,
        newPassword: 'an uncommon 9',
      });
      expect(wrong.statusCode).toBe(400);
    }
    const limited = await change(user, {
      currentPassword: user.password,
      newPassword: 'an uncommon 9',
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ error: string }>().error).toMatch(/^Too many wrong passwords/);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('PUT /api/account/email', () => {
  const change = (user: { token: string }, body: object) =>
    apiClient(ctx.app, user).unchecked(accountApi.changeEmail, { body });

  it('changes the address, which is unverified until the link sent to it is followed', async () => {
    const user = await registerUser(ctx.app);
    const first = linkToken(await smtp.take(user.email), '/verify-email');
    await apiClient(ctx.app, null)(authApi.verifyEmail, { body: { token: first } });
    const oldLink = await apiClient(ctx.app, user)(accountApi.resendVerification);
    expect(oldLink.statusCode).toBe(409); // verified

    const email = `${uniqueName('moved')}@example.org`;
    const response = await change(user, { email, currentPassword: user.password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email, emailVerified: false, hasPassword: true });

    const mail = await smtp.take(email);
    expect((await account(user)).emailVerified).toBe(false);
    await apiClient(ctx.app, null)(authApi.verifyEmail, {
      body: { token: linkToken(mail, '/verify-email') },
    });
    expect(await account(user)).toMatchObject({ email, emailVerified: true });
  });

  it('does not let a link sent to the old address verify the new one', async () => {
    const user = await registerUser(ctx.app);
    const oldToken = linkToken(await smtp.take(user.email), '/verify-email');
    const email = `${uniqueName('new')}@example.org`;
    await change(user, { email, currentPassword: user.password });
    await smtp.take(email);
    const response = await apiClient(ctx.app, null)(authApi.verifyEmail, {
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
    const resend = await apiClient(ctx.app, user)(accountApi.resendVerification);
    expect(resend.statusCode).toBe(202);
    await smtp.take(user.email);
    const addresses = [1, 2, 3].map(() => `${uniqueName('moved')}@example.org`);
    for (const email of addresses.slice(0, 2)) {
      expect((await change(user, { email, currentPassword: user.password })).statusCode).toBe(200);
      await smtp.take(email);
    }
    const limited = await change(user, { email: addresses[2], currentPassword: user.password });
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ error: string }>().error).toBe(
      'Too many verification e-mails - try again in 60 minutes',
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await account(user)).email).toBe(addresses[1]);
    ctx.clock.advance(HOUR);
    const later = await login(user);
    const email = addresses[2] as string;
    expect((await change(later, { email, currentPassword: user.password })).statusCode).toBe(200);
    await smtp.take(email);
  });

  it('sends at most 3 verification e-mails an hour to one address, whichever accounts ask', async () => {
    const target = `${uniqueName('target')}@example.org`;
    const [first, second] = [await newUser(), await newUser()];
    expect(
      (await change(first, { email: target, currentPassword: first.password })).statusCode,
    ).toBe(200);
    for (let i = 0; i < 2; i++) {
      const resend = await apiClient(ctx.app, first)(accountApi.resendVerification);
      expect(resend.statusCode).toBe(202);
    }
    for (let i = 0; i < 3; i++) await smtp.take(target);
    // The address is free again, but has had its 3 e-mails this hour.
    const elsewhere = `${uniqueName('gone')}@example.org`.toLowerCase();
    await ctx.database.handle.db
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

describe('sessions', () => {
  it('lists the open sessions, newest first, marking the current one', async () => {
    const user = await newUser();
    ctx.clock.advance(1000);
    const second = await login(user);
    const response = await apiClient(ctx.app, user)(accountApi.sessions);
    expect(response.statusCode).toBe(200);
    const sessions =
      response.json<
        { id: string; current: boolean; userAgent: string | null; createdAt: string }[]
      >();
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ current: false, userAgent: 'Second device' });
    expect(sessions[1]).toMatchObject({ current: true });
    expect(Date.parse(sessions[0]?.createdAt ?? '')).toBeGreaterThan(
      Date.parse(sessions[1]?.createdAt ?? ''),
    );
    expect(Object.keys(sessions[0] ?? {}).sort()).toEqual([
      'createdAt',
      'current',
      'id',
      'lastUsedAt',
      'userAgent',
    ]);
    const fromSecond = (await apiClient(ctx.app, second)(accountApi.sessions)).json<
      { current: boolean }[]
    >();
    expect(fromSecond.map((s) => s.current)).toEqual([true, false]);
  });

  it('ends one session: its access token and cookie fail at once, the others go on', async () => {
    const user = await newUser();
    ctx.clock.advance(1000);
    const second = await login(user);
    const [other] = (await apiClient(ctx.app, user)(accountApi.sessions)).json<
      { id: string; current: boolean }[]
    >();
    expect(other?.current).toBe(false);
    const end = (id: string) => apiClient(ctx.app, user)(accountApi.endSession, { params: { id } });
    expect((await end(other?.id ?? '')).statusCode).toBe(204);
    expect((await todos(second)).statusCode).toBe(401);
    expect((await todos(user)).statusCode).toBe(200);
    const refresh = await apiClient(ctx.app, null)(authApi.refresh, {
      headers: { cookie: second.cookie },
    });
    expect(refresh.statusCode).toBe(401);
    // Already ended: 404.
    const again = await end(other?.id ?? '');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'Session not found' });
    const listed = (await apiClient(ctx.app, user)(accountApi.sessions)).json<unknown[]>();
    expect(listed).toHaveLength(1);
  });

  it("answers 404 for another account's session and leaves it alone", async () => {
    const user = await newUser();
    const stranger = await newUser();
    const [theirs] = (await apiClient(ctx.app, stranger)(accountApi.sessions)).json<
      { id: string }[]
    >();
    const response = await apiClient(ctx.app, user)(accountApi.endSession, {
      params: { id: theirs?.id ?? '' },
    });
    expect(response.statusCode).toBe(404);
    expect((await todos(stranger)).statusCode).toBe(200);
  });

  it('ends every other session with one call', async () => {
    const user = await newUser();
    const others = [await login(user), await login(user)];
    const response = await apiClient(ctx.app, user)(accountApi.endOtherSessions);
    expect(response.statusCode).toBe(204);
    for (const other of others) expect((await todos(other)).statusCode).toBe(401);
    expect((await todos(user)).statusCode).toBe(200);
    const listed = (await apiClient(ctx.app, user)(accountApi.sessions)).json<
      { current: boolean }[]
    >();
    expect(listed).toEqual([expect.objectContaining({ current: true })]);
  });
});

describe('GET /api/account/export', () => {
  it('sends everything of the account as a versioned JSON attachment, without secrets', async () => {
    const user = await newUser();
    const call = apiClient(ctx.app, user);
    const group = (
      await call(groupsApi.create, { body: { name: 'Home', color: '#10B981' } })
    ).json<{ id: number }>();
    const todo = (
      await call(todosApi.create, {
        body: { title: 'Water the plants', description: 'twice', groupId: group.id },
      })
    ).json<{ id: number }>();
    await call(todosApi.update, {
      params: { id: todo.id },
      body: { title: 'Water the plants', groupId: group.id, completed: true },
    });
    ctx.clock.advance(24 * HOUR);
    const nextDay = apiClient(ctx.app, await login(user));
    await nextDay(todosApi.create, { body: { title: 'Next day' } });

    const response = await nextDay(accountApi.export);
    expect(response.statusCode).toBe(200);
    const day = new Date(ctx.clock.now()).toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="tally-export-${day}.json"`,
    );
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const data = response.json<{
      version: number;
      account: { username: string };
      groups: { id: number; name: string }[];
      todos: { title: string; groupId: number | null; completed: boolean }[];
      tags: unknown[];
      todoSorts: Record<string, string>;
      completions: unknown[];
      statistics: { totals: Record<string, number>; daily: Record<string, number | string>[] };
    }>();
    // The answer is what the contract's versioned schema describes, to the format.
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    expect(ajv.validate(AccountExportSchema, data), ajv.errorsText()).toBe(true);
    expect(data.version).toBe(3);
    expect(data.account.username).toBe(user.username);
    expect(data.groups).toEqual([
      { id: group.id, name: 'Home', color: '#10B981', createdAt: expect.any(String) },
    ]);
    expect(data.todos.map((t) => [t.title, t.groupId, t.completed])).toEqual([
      ['Water the plants', group.id, true],
      ['Next day', null, false],
    ]);
    expect(data.todos[1]).toMatchObject({
      dueDate: null,
      dueTime: null,
      repeat: null,
      tags: [],
      priority: 0,
      parentId: null,
      startDate: null,
    });
    expect(data.tags).toEqual([]);
    expect(data.todoSorts).toEqual({});
    expect(data.completions).toEqual([
      expect.objectContaining({ todoId: todo.id, groupId: group.id, onTime: null }),
    ]);
    expect(data.statistics.totals).toMatchObject({
      registrations: 1,
      logins: 1,
      todosCreated: 2,
      todosCompleted: 1,
      groupsCreated: 1,
    });
    expect(data.statistics.daily).toHaveLength(2);
    expect(data.statistics.daily[1]).toMatchObject({ date: day, todosCreated: 1 });
    const text = response.body;
    expect(text).not.toMatch(/argon2|password_hash|token_hash/);
  });
});

describe('DELETE /api/account', () => {
  it('deletes every row of the account in one go; name and address can be used again', async () => {
    const user = await newUser();
    const call = apiClient(ctx.app, user);
    const group = (await call(groupsApi.create, { body: { name: 'G', color: '#EF4444' } })).json<{
      id: number;
    }>();
    await call(todosApi.create, { body: { title: 'T', groupId: group.id } });
    await login(user);
    await call(accountApi.resendVerification);
    await smtp.take(user.email);
    const bystander = await newUser();
    const db = ctx.database.handle.db;
    const bystanderBefore = await snapshotUser(db, bystander.id);
    const rowsOf = async () =>
      Object.fromEntries(
        Object.entries(
          JSON.parse(await snapshotUser(db, user.id)) as Record<string, unknown[]>,
        ).map(([table, rows]) => [table, rows.length]),
      );
    const before = await rowsOf();
    for (const table of [
      'users',
      'todos',
      'todo_groups',
      'sessions',
      'refresh_tokens',
      'statistic_events',
      'statistic_totals',
      'statistic_hours',
      'email_tokens',
    ]) {
      expect(before[table], table).toBeGreaterThan(0);
    }

    const wrong = await call(accountApi.remove, { body: { password: 'no' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'password is not correct' });
    expect(await rowsOf()).toEqual(before);

    const response = await call(accountApi.remove, { body: { password: user.password } });
    expect(response.statusCode).toBe(204);
    const after = await rowsOf();
    expect(Object.entries(after).filter(([, n]) => n !== 0)).toEqual([]);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(await snapshotUser(db, bystander.id)).toBe(bystanderBefore);

    // The access token fails at once, and the name and address are free again.
    expect((await todos(user)).statusCode).toBe(401);
    const again = await apiClient(ctx.app, null)(authApi.register, {
      body: { username: user.username, email: user.email, password: 'another password' },
    });
    expect(again.statusCode).toBe(201);
  });

  it('needs the password: none, or a Google credential instead, is a 400 naming it', async () => {
    const user = await newUser();
    const call = (payload: object) =>
      apiClient(ctx.app, user)(accountApi.remove, { body: payload });
    const none = await call({});
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ error: 'password is required to delete the account' });
    const both = await call({ password: user.password, googleToken: 'x' });
    expect(both.statusCode).toBe(400);
    expect((await todos(user)).statusCode).toBe(200);
  });
});
