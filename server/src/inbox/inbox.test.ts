import {
  accountApi,
  adminApi,
  authApi,
  calendarApi,
  groupsApi,
  type AdminHealth,
  inboxApi,
  type Inbox,
  todosApi,
  type Todo,
} from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  createTestDatabase,
  registerUser,
  type TestContext,
  type TestDatabase,
  type TestUser,
} from '../test/helpers.js';
import { type LocalDovecot, startLocalDovecot } from '../test/local-dovecot.js';
import { simpleParser } from 'mailparser';
import { createInboxService } from './service.js';
import { linkToken, type LocalSmtp, startLocalSmtp } from '../test/local-smtp.js';

/**
 * E-mail to task end to end: Dovecot on loopback holds the operator's mailbox, mail is delivered
 * into it by IMAP APPEND, and the app's fetcher (IDLE) turns it into todos. Both databases.
 */

const DOMAIN = 'tally.example';
const FAST = { leaseMs: 3_000, retryMs: 200 };

let dovecot: LocalDovecot;
let smtp: LocalSmtp;
let database: TestDatabase;
let ctx: TestContext;
/** The first account: the operator, who sees the admin page's health. */
let operator: TestUser;

const appOn = (shared: TestDatabase, fetcher: false | typeof FAST) =>
  createTestApp({
    database: shared,
    config: {
      smtpUrl: smtp.url,
      mailFrom: 'Tally <tally@example.com>',
      inbox: loadConfig({ INBOX_IMAP_URL: dovecot.url, INBOX_ADDRESS: `todo@${DOMAIN}` }).inbox,
    },
    inboxFetcher: fetcher,
    logger: { level: process.env.INBOX_DEBUG ? 'info' : 'silent' },
  });

beforeAll(async () => {
  dovecot = await startLocalDovecot();
  smtp = await startLocalSmtp();
  database = await createTestDatabase();
  ctx = await appOn(database, FAST);
  operator = await registerUser(ctx.app);
});
afterAll(async () => {
  await ctx?.close();
  await database?.drop();
  await smtp?.close();
  await dovecot?.close();
});

/** A user whose e-mail address is verified (by the link of the verification mail). */
async function verifiedUser(): Promise<TestUser> {
  const user = await registerUser(ctx.app);
  const token = linkToken(await smtp.take(user.email), '/verify-email');
  await apiClient(ctx.app, null)(authApi.verifyEmail, { body: { token } });
  return user;
}

const inboxOf = async (user: TestUser) => (await apiClient(ctx.app, user)(inboxApi.get)).data();
const todosOf = async (user: TestUser) => (await apiClient(ctx.app, user)(todosApi.list)).data();

interface Mail {
  to: string;
  from: string;
  subject: string;
  date?: string;
  /** The body with its own headers (Content-Type…), or plain text. */
  body?: string;
  headers?: string;
}

function raw(mail: Mail): string {
  const lines = [
    `From: ${mail.from}`,
    `To: ${mail.to}`,
    `Subject: ${mail.subject}`,
    `Date: ${mail.date ?? 'Tue, 10 Mar 2026 09:30:00 +0000'}`,
    `Message-ID: <${Math.random().toString(36).slice(2)}@sender.example>`,
    'MIME-Version: 1.0',
  ];
  if (mail.headers) return `${lines.join('\r\n')}\r\n${mail.headers}`;
  return `${lines.join('\r\n')}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${mail.body ?? ''}\r\n`;
}

/** Waits (up to 10 s) until the user's todos satisfy `done`. */
async function until(user: TestUser, done: (todos: Todo[]) => boolean): Promise<Todo[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const todos = await todosOf(user);
    if (done(todos)) return todos;
    if (Date.now() > deadline) throw new Error(`not within 10 s: ${JSON.stringify(todos)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the subject has been moved to Processed: the fetcher is done with it. */
async function untilProcessed(subject: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await dovecot.subjects('Processed')).includes(subject)) {
    if (Date.now() > deadline) throw new Error(`${subject} was not processed within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the address', () => {
  it('is todo+{secret}@{domain}, the same on every look, and renewing makes a new one', async () => {
    const user = await registerUser(ctx.app);
    const first = await inboxOf(user);
    expect(first.address).toMatch(new RegExp(`^todo\\+[a-z2-7]{20}@${DOMAIN}$`));
    expect(first).toMatchObject({ onlyFromMyAddresses: true, verifiedEmail: null });
    expect((await inboxOf(user)).address).toBe(first.address);
    const renewed = (await apiClient(ctx.app, user)(inboxApi.renew)).data();
    expect(renewed.address).not.toBe(first.address);
    expect((await inboxOf(user)).address).toBe(renewed.address);
    expect((await inboxOf(await registerUser(ctx.app))).address).not.toBe(renewed.address);
  });

  it('is null when the server names no mailbox, and renewing answers 404', async () => {
    const bare = await createTestApp({ database });
    try {
      const user = await registerUser(bare.app);
      const inbox = (await apiClient(bare.app, user)(inboxApi.get)).data();
      expect(inbox.address).toBeNull();
      expect((await apiClient(bare.app, user).unchecked(inboxApi.renew, {})).statusCode).toBe(404);
    } finally {
      await bare.app.close();
    }
  });

  it('refuses a body that is not a yes or no (400 naming the field), and needs a session', async () => {
    const user = await registerUser(ctx.app);
    const answer = await apiClient(ctx.app, user).unchecked(inboxApi.update, {
      body: { onlyFromMyAddresses: 'maybe' },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ error: string }>().error).toMatch(/onlyFromMyAddresses/);
    expect((await inboxOf(user)).onlyFromMyAddresses).toBe(true);
    expect((await apiClient(ctx.app, null).unchecked(inboxApi.get, {})).statusCode).toBe(401);
  });
});

describe('mail to the address', () => {
  it('becomes a todo within 10 s: subject as quick add, body, date; the message is moved', async () => {
    const user = await verifiedUser();
    const { address, verifiedEmail } = await inboxOf(user);
    expect(verifiedEmail).toBe(user.email);
    await dovecot.append(
      raw({
        from: `Someone <${user.email.toUpperCase()}>`,
        to: address ?? '',
        subject: 'Renew the passport @errands p1',
        date: 'Tue, 10 Mar 2026 10:30:00 +0100',
        body: 'Photos from the shop on the corner.\r\nBring the old one.',
      }),
    );
    const [todo] = await until(user, (todos) => todos.length === 1);
    expect(todo).toMatchObject({
      title: 'Renew the passport',
      description: 'Photos from the shop on the corner.\nBring the old one.',
      tags: ['errands'],
      priority: 3,
      created: '2026-03-10T09:30:00.000Z',
      completed: false,
    });
    await untilProcessed('Renew the passport @errands p1');
    expect(await dovecot.subjects('INBOX')).not.toContain('Renew the passport @errands p1');
  });

  it('reads the subject as the web app reads a title: date, group and repeat, in the user zone', async () => {
    const user = await verifiedUser();
    const call = apiClient(ctx.app, user);
    const home = (
      await call(groupsApi.create, { body: { name: 'Home', color: '#84CC16' } })
    ).expectBody(201);
    // The account's zone is its calendar feed's: there, 11:30 UTC is already tomorrow.
    await call(calendarApi.regenerate, { headers: { 'x-time-zone': 'Pacific/Auckland' } });
    const { address } = await inboxOf(user);
    await dovecot.append(
      raw({
        from: user.email,
        to: address ?? '',
        subject: 'Pay rent tomorrow #Home every month',
        date: 'Tue, 10 Mar 2026 11:30:00 +0000',
      }),
    );
    const [todo] = await until(user, (todos) => todos.length === 1);
    expect(todo).toMatchObject({
      title: 'Pay rent',
      dueDate: '2026-03-12',
      dueTime: null,
      groupId: home.id,
      repeat: { every: 1, unit: 'month', from: 'due' },
    });
  });

  it('takes an HTML-only body as Markdown, without scripts or images', async () => {
    const user = await verifiedUser();
    const { address } = await inboxOf(user);
    await dovecot.append(
      raw({
        from: user.email,
        to: address ?? '',
        subject: 'Read the article',
        headers:
          'Content-Type: text/html; charset=utf-8\r\n\r\n' +
          '<html><head><style>p{}</style><script>alert(1)</script></head><body>' +
          '<p>See <a href="https://example.com/a">the article</a>, <b>today</b>.</p>' +
          '<img src="https://tracker.example/pixel.gif"><ul><li>one</li><li>two</li></ul></body></html>\r\n',
      }),
    );
    const [todo] = await until(user, (todos) => todos.length === 1);
    expect(todo?.title).toBe('Read the article');
    expect(todo?.description).toBe(
      'See [the article](https://example.com/a), **today**.\n\n-   one\n-   two',
    );
  });

  it('makes nothing for a wrong or renewed secret, a stranger, or an unverified address', async () => {
    const user = await verifiedUser();
    const old = (await inboxOf(user)).address ?? '';
    const renewed = (await apiClient(ctx.app, user)(inboxApi.renew)).data().address ?? '';
    const unverified = await registerUser(ctx.app);
    const unverifiedAddress = (await inboxOf(unverified)).address ?? '';
    const mails = [
      { from: user.email, to: old, subject: 'To the renewed secret' },
      { from: user.email, to: `todo+aaaaaaaaaaaaaaaaaaaa@${DOMAIN}`, subject: 'To a wrong secret' },
      { from: user.email, to: `todo@${DOMAIN}`, subject: 'To no secret' },
      { from: 'mallory@evil.example', to: renewed, subject: 'From a stranger' },
      { from: unverified.email, to: unverifiedAddress, subject: 'From an unverified address' },
    ];
    for (const mail of mails) await dovecot.append(raw(mail));
    for (const mail of mails) await untilProcessed(mail.subject);
    expect(await todosOf(user)).toEqual([]);
    expect(await todosOf(unverified)).toEqual([]);
    // Nothing answered them: no mail went out.
    await ctx.app.settleEmail();
    expect(smtp.received.filter((mail) => mail.subject.includes('stranger'))).toEqual([]);

    // With the switch off, anyone who has the address can add.
    const off = await apiClient(ctx.app, user)(inboxApi.update, {
      body: { onlyFromMyAddresses: false },
    });
    expect(off.data()).toMatchObject<Partial<Inbox>>({ onlyFromMyAddresses: false });
    await dovecot.append(
      raw({ from: 'friend@other.example', to: renewed, subject: 'From a friend' }),
    );
    const todos = await until(user, (list) => list.length === 1);
    expect(todos[0]?.title).toBe('From a friend');
  });

  it('refuses a 20 MB mail and a malformed one without harm: the next mail still works', async () => {
    const user = await verifiedUser();
    const { address } = await inboxOf(user);
    const big = 'x'.repeat(76) + '\r\n';
    await dovecot.append(
      raw({
        from: user.email,
        to: address ?? '',
        subject: 'Twenty megabytes',
        body: big.repeat(Math.ceil((20 * 1024 * 1024) / big.length)),
      }),
    );
    await dovecot.append(
      Buffer.concat([
        Buffer.from(
          `From: ${user.email}\r\nTo: ${address}\r\nSubject: Malformed\r\nMIME-Version: 1.0\r\n` +
            'Content-Type: multipart/mixed\r\nContent-Transfer-Encoding: base64\r\n\r\n' +
            '--b1\r\nContent-Type: multipart/alternative; boundary=\r\n\r\n--\r\n%%%=?x?Q?\r\n',
        ),
        Buffer.from([0, 0xff, 0xfe, 0x00, 0x1b, 0x0d]),
        Buffer.from('\r\n--b1\r\n'),
      ]),
    );
    await dovecot.append(raw({ from: user.email, to: address ?? '', subject: 'After them' }));
    await untilProcessed('Twenty megabytes');
    await untilProcessed('Malformed');
    const todos = await until(user, (list) => list.some((todo) => todo.title === 'After them'));
    expect(todos.map((todo) => todo.title)).toEqual(['After them']);
  });
});

describe('deleting the account', () => {
  it('ends its address: a mail to it then makes nothing and is moved', async () => {
    const user = await verifiedUser();
    const { address } = await inboxOf(user);
    const deleted = await apiClient(ctx.app, user)(accountApi.remove, {
      body: { password: user.password },
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const left = await database.handle.db
      .selectFrom('inbox_addresses')
      .select('user_id')
      .where('user_id', '=', user.id)
      .execute();
    expect(left).toEqual([]);
    await dovecot.append(raw({ from: user.email, to: address ?? '', subject: 'After deletion' }));
    await untilProcessed('After deletion');
    const todos = await database.handle.db
      .selectFrom('todos')
      .select('id')
      .where('title', '=', 'After deletion')
      .execute();
    expect(todos).toEqual([]);
  });
});

/** Asks the admin health until `done` holds (up to 10 s). */
async function healthUntil(
  app: TestContext['app'],
  admin: TestUser,
  done: (imap: AdminHealth['imap']) => boolean,
): Promise<AdminHealth> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const health = (await apiClient(app, admin)(adminApi.health)).expectBody(200);
    if (done(health.imap)) return health;
    if (Date.now() > deadline) throw new Error(`not within 10 s: ${JSON.stringify(health.imap)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the admin health', () => {
  it('shows the fetcher holding its lease, connected, and the last mail taken, with no secret', async () => {
    const user = await verifiedUser();
    const { address } = await inboxOf(user);
    await dovecot.append(raw({ from: user.email, to: address ?? '', subject: 'For the health' }));
    await untilProcessed('For the health');
    const health = await healthUntil(ctx.app, operator, (imap) => imap?.lastMailAt !== null);
    expect(health.imap).toMatchObject({ ok: true, leaseHeld: true, here: true, connected: true });
    expect(health.imap?.lastMailAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(JSON.stringify(health)).not.toContain(new URL(dovecot.url).password);
  });

  it('shows a refused login as the last error, failing, without the password', async () => {
    const url = new URL(dovecot.url);
    url.password = 'not-the-password-4711';
    const other = await createTestDatabase();
    const failing = await createTestApp({
      database: other,
      config: {
        inbox: loadConfig({ INBOX_IMAP_URL: url.href, INBOX_ADDRESS: `todo@${DOMAIN}` }).inbox,
      },
      inboxFetcher: FAST,
      logger: { level: 'silent' },
    });
    try {
      const admin = await registerUser(failing.app);
      const health = await healthUntil(failing.app, admin, (imap) => imap?.lastError != null);
      // Between tries the lease is free again, so only the failure itself is certain.
      expect(health.imap).toMatchObject({ ok: false, connected: false });
      expect(health.imap?.lastError?.message).not.toBe('');
      expect(JSON.stringify(health)).not.toContain('not-the-password-4711');
    } finally {
      await failing.close();
      await other.drop();
    }
  });
});

describe('the fetcher', () => {
  it('makes one todo of a message taken twice (a stop between the todo and the move)', async () => {
    const user = await verifiedUser();
    const { address } = await inboxOf(user);
    const service = createInboxService({
      db: database.handle.db,
      clock: ctx.clock.now,
      inbox: loadConfig({ INBOX_IMAP_URL: dovecot.url, INBOX_ADDRESS: `todo@${DOMAIN}` }).inbox,
    });
    const mail = await simpleParser(
      raw({ from: user.email, to: address ?? '', subject: 'Taken twice' }),
    );
    expect((await service.take(mail, 'INBOX:1:99')).kind).toBe('created');
    expect(await service.take(mail, 'INBOX:1:99')).toEqual({ kind: 'seen-before' });
    expect((await todosOf(user)).map((todo) => todo.title)).toEqual(['Taken twice']);
  });

  it('runs once across two processes and carries on in the other when one stops', async () => {
    const user = await verifiedUser();
    const { address } = await inboxOf(user);
    const second = await appOn(database, FAST);
    try {
      for (const n of [1, 2, 3, 4, 5]) {
        await dovecot.append(raw({ from: user.email, to: address ?? '', subject: `Batch ${n}` }));
      }
      await until(user, (todos) => todos.length === 5);
      await untilProcessed('Batch 5');
      // The first process stops (a restart): the other one takes the mailbox over.
      await ctx.app.close();
      ctx = second;
      await dovecot.append(
        raw({ from: user.email, to: address ?? '', subject: 'After a restart' }),
      );
      const todos = await until(user, (list) => list.length === 6);
      expect(todos.map((todo) => todo.title).sort()).toEqual([
        'After a restart',
        'Batch 1',
        'Batch 2',
        'Batch 3',
        'Batch 4',
        'Batch 5',
      ]);
    } finally {
      ctx = second;
    }
    expect(await dovecot.subjects('INBOX')).toEqual([]);
  });
});
