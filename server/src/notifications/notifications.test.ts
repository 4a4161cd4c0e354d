import {
  accountApi,
  type Channel,
  groupsApi,
  notificationsApi,
  remindersApi,
  type Todo,
  todosApi,
  trashApi,
  WebhookPayloadSchema,
} from '@tally/contract';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  createTestDatabase,
  registerUser,
  signInAgain,
  type TestContext,
  type TestDatabase,
  type TestUser,
} from '../test/helpers.js';
import {
  GOTIFY_TOKEN,
  NTFY_TOKEN,
  PUSHOVER_TOKEN,
  PUSHOVER_USER,
  startLocalReceivers,
  type LocalReceivers,
} from '../test/local-notify-receivers.js';
import { type LocalSmtp, startLocalSmtp } from '../test/local-smtp.js';
import { davAccount, davRequester, davVtodo } from '../test/caldav.js';
import { imported } from '../test/import-helpers.js';

/**
 * Notification channels end to end on the server: each channel's stand-in (test/
 * local-notify-receivers.ts) takes only its documented publish request, webhooks are verified
 * with the Standard Webhooks library, and time moves on the test clock only.
 */

// The payload's timestamp is checked as the OpenAPI document describes it.
FormatRegistry.Set('date-time', (value) => !Number.isNaN(Date.parse(value)));

let database: TestDatabase;
let ctx: TestContext;
let receivers: LocalReceivers;
let smtp: LocalSmtp;

/** The webhook library checks timestamps against Date.now(): it follows the test clock. */
function advance(ms: number) {
  ctx.clock.advance(ms);
  vi.setSystemTime(ctx.clock.now());
}

beforeAll(async () => {
  receivers = await startLocalReceivers();
  smtp = await startLocalSmtp();
  database = await createTestDatabase();
  ctx = await createTestApp({
    database,
    config: {
      outboundAllowPrivate: true,
      pushoverApiUrl: `${receivers.origin}/pushover/1/messages.json`,
      smtpUrl: smtp.url,
      mailFrom: 'Tally <tally@example.com>',
      publicUrl: 'https://tally.example.com',
    },
  });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ctx.clock.now());
});
afterAll(async () => {
  vi.useRealTimers();
  await ctx.close();
  await receivers.close();
  await smtp.close();
  await database.drop();
});
afterEach(() => {
  receivers.received.length = 0;
  receivers.refused.length = 0;
});

const tick = () => ctx.app.sendDueNotifications();

/**
 * The API as the user calls it; access tokens last minutes and the clock moves by days here, so
 * a call made more than five minutes after the last sign-in signs in again first.
 */
function client(user: TestUser, app = ctx.app) {
  let current = user;
  let signedAt = ctx.clock.now();
  const call = async () => {
    if (ctx.clock.now() - signedAt > 5 * 60_000) {
      current = await signInAgain(app, current);
      signedAt = ctx.clock.now();
    }
    return apiClient(app, current);
  };
  return {
    list: async () => (await call())(notificationsApi.list),
    create: async (body: object) => (await call()).unchecked(notificationsApi.create, { body }),
    update: async (id: number, body: object) =>
      (await call()).unchecked(notificationsApi.update, { params: { id }, body }),
    test: async (id: number) => (await call())(notificationsApi.test, { params: { id } }),
    deliveries: async (id: number) =>
      (await call())(notificationsApi.deliveries, { params: { id } }),
    redeliver: async (id: number) => (await call())(notificationsApi.redeliver, { params: { id } }),
    raw: call,
    createTodo: async (body: object) =>
      (await call()).unchecked(todosApi.create, {
        body,
        headers: { 'x-time-zone': 'Europe/Berlin' },
      }),
  };
}

async function webhook(api: ReturnType<typeof client>, name: string) {
  const created = await api.create({
    kind: 'webhook',
    name,
    url: `${receivers.origin}/hooks/${name}`,
  });
  expect(created.statusCode).toBe(201);
  const { channel, signingSecret } = created.json<{
    channel: Channel;
    signingSecret: string;
  }>();
  expect(signingSecret).toMatch(/^whsec_/);
  receivers.setSecret(name, signingSecret);
  return channel;
}

/** A todo whose reminder falls due 30 minutes from the clock's time. */
async function todoRemindingSoon(api: ReturnType<typeof client>, title: string) {
  const due = new Date(ctx.clock.now() + 30 * 60_000);
  const time = due.toLocaleTimeString('en-GB', {
    timeZone: 'Europe/Berlin',
    hour: '2-digit',
    minute: '2-digit',
  });
  const date = due.toLocaleDateString('en-CA', { timeZone: 'Europe/Berlin' });
  const todo = await api.createTodo({
    title,
    dueDate: date,
    dueTime: time,
    remindMinutesBefore: 0,
  });
  expect(todo.statusCode).toBe(201);
}

describe('channels', () => {
  it('keeps each kind, shows tokens only masked, and a test reports the answer', async () => {
    const api = client(await registerUser(ctx.app));
    const ntfy = await api.create({
      kind: 'ntfy',
      name: 'Phone',
      url: `${receivers.origin}/ntfy`,
      topic: 'private',
      token: NTFY_TOKEN,
    });
    const gotify = await api.create({
      kind: 'gotify',
      name: 'Gotify',
      url: `${receivers.origin}/gotify`,
      token: GOTIFY_TOKEN,
    });
    const pushover = await api.create({
      kind: 'pushover',
      name: 'Pushover',
      userKey: PUSHOVER_USER,
      token: PUSHOVER_TOKEN,
    });
    for (const created of [ntfy, gotify, pushover]) expect(created.statusCode).toBe(201);

    const list = (await api.list()).expectBody(200);
    expect(list.map((channel) => [channel.kind, channel.tokenHint])).toEqual([
      ['ntfy', `…${NTFY_TOKEN.slice(-4)}`],
      ['gotify', `…${GOTIFY_TOKEN.slice(-4)}`],
      ['pushover', `…${PUSHOVER_TOKEN.slice(-4)}`],
    ]);
    const everything = JSON.stringify(list) + ntfy.body + gotify.body + pushover.body;
    for (const secret of [NTFY_TOKEN, GOTIFY_TOKEN, PUSHOVER_TOKEN]) {
      expect(everything).not.toContain(secret);
    }

    for (const channel of list) {
      const result = (await api.test(channel.id)).expectBody(200);
      expect(result).toMatchObject({ ok: true, status: 200 });
    }
    expect(receivers.received.map((message) => message.service)).toEqual([
      'ntfy',
      'gotify',
      'pushover',
    ]);
    expect(receivers.received[0]?.headers.authorization).toBe(`Bearer ${NTFY_TOKEN}`);

    // A wrong token: the test says what the service answered.
    const [, gotifyChannel] = list;
    const changed = await api.update(gotifyChannel?.id ?? 0, { token: 'WrongTokenHere1' });
    expect(changed.statusCode).toBe(200);
    const failed = (await api.test(gotifyChannel?.id ?? 0)).expectBody(200);
    expect(failed).toMatchObject({ ok: false, status: 401 });
    expect(failed.answer).toContain('gotify: token');
  });

  it('refuses a channel without what its kind needs, naming the field', async () => {
    const api = client(await registerUser(ctx.app));
    const answers = await Promise.all([
      api.create({ kind: 'ntfy', name: 'n', url: `${receivers.origin}/ntfy` }),
      api.create({ kind: 'gotify', name: 'g', url: `${receivers.origin}/gotify` }),
      api.create({ kind: 'pushover', name: 'p', token: PUSHOVER_TOKEN }),
      api.create({ kind: 'webhook', name: 'w', url: 'ftp://example.com/' }),
    ]);
    expect(
      answers.map((answer) => [answer.statusCode, answer.json<{ error: string }>().error]),
    ).toEqual([
      [400, 'topic is required for ntfy'],
      [400, 'token is required for gotify'],
      [400, 'userKey is required for pushover'],
      [400, 'url must be http or https'],
    ]);
    expect((await api.list()).expectBody(200)).toEqual([]);

    // A change is checked as a creation is, once the channel is found to be the user's.
    const ntfy = await api.create({
      kind: 'ntfy',
      name: 'n',
      url: `${receivers.origin}/ntfy`,
      topic: 'mine',
    });
    const { id } = ntfy.json<{ channel: Channel }>().channel;
    const bad = await api.update(id, { topic: 'not a topic' });
    expect([bad.statusCode, bad.json<{ error: string }>().error]).toEqual([
      400,
      'topic must be 1 to 64 letters, digits, - or _',
    ]);
    const stranger = client(await registerUser(ctx.app));
    expect((await stranger.update(id, { topic: 'not a topic' })).statusCode).toBe(404);
  });
});

describe('secrets', () => {
  it('never writes a token or signing secret to a log line', async () => {
    const lines: string[] = [];
    const logged = await createTestApp({
      database,
      clock: ctx.clock,
      config: { outboundAllowPrivate: true },
      logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      const api = client(await registerUser(logged.app), logged.app);
      const gotify = await api.create({
        kind: 'gotify',
        name: 'g',
        url: `${receivers.origin}/gotify`,
        token: GOTIFY_TOKEN,
      });
      const { id } = gotify.json<{ channel: Channel }>().channel;
      await api.update(id, { token: 'AnotherToken123' });
      await api.test(id);
      const hook = await api.create({
        kind: 'webhook',
        name: 'w',
        url: `${receivers.origin}/hooks/logged`,
      });
      const { signingSecret } = hook.json<{ signingSecret: string }>();
      receivers.setSecret('logged', signingSecret);
      await api.createTodo({ title: 'Logged' });
      await logged.app.sendDueNotifications();
      expect(receivers.received.map((message) => message.service)).toEqual(['webhook']);
      expect(lines.length).toBeGreaterThan(0);
      const log = lines.join('\n');
      for (const secret of [GOTIFY_TOKEN, 'AnotherToken123', signingSecret]) {
        expect(log).not.toContain(secret);
      }
    } finally {
      await logged.close();
    }
  });
});

describe('webhook events', () => {
  it('tells a webhook of todo and group events, in the documented schema', async () => {
    const api = client(await registerUser(ctx.app));
    await webhook(api, 'events');
    const call = await api.raw();
    const group = (
      await call(groupsApi.create, { body: { name: 'Home', color: '#3B82F6' } })
    ).expectBody(201);
    const todo = (await api.createTodo({ title: 'Paint the door', groupId: group.id })).json<{
      id: number;
    }>();
    await call.unchecked(todosApi.patch, { params: { id: todo.id }, body: { title: 'Paint it' } });
    await call.unchecked(todosApi.patch, { params: { id: todo.id }, body: { completed: true } });
    // Completed already: a change that says so again is an update.
    await call.unchecked(todosApi.patch, {
      params: { id: todo.id },
      body: { completed: true, title: 'Paint it' },
    });
    await call(todosApi.remove, { params: { id: todo.id } });
    await call.unchecked(trashApi.restore, {
      params: { id: todo.id },
      headers: { 'x-time-zone': 'Europe/Berlin' },
    });
    await call(groupsApi.remove, { params: { id: group.id } });
    await tick();

    const payloads = receivers.received.map((message) => message.fields);
    for (const payload of payloads) expect(Value.Check(WebhookPayloadSchema, payload)).toBe(true);
    expect(payloads.map((payload) => payload.type)).toEqual([
      'group.created',
      'todo.created',
      'todo.updated',
      'todo.completed',
      'todo.updated',
      'todo.deleted',
      'todo.restored',
      'group.deleted',
    ]);
    expect(payloads[3]).toMatchObject({
      data: { id: todo.id, title: 'Paint it', completed: true, groupId: group.id },
    });
    expect(payloads[7]).toMatchObject({ data: { id: group.id, name: 'Home' } });
  });

  it('describes the payload in the OpenAPI document', async () => {
    const spec = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const document = spec.json<{ webhooks: Record<string, unknown>; paths: object }>();
    expect(Object.keys(document.paths)).toContain('/api/notifications/channels');
    expect(JSON.stringify(document.webhooks)).toContain('todo.completed');
  });
});

describe('delivery', () => {
  it("sends a todo's reminder to every channel within a minute of its time", async () => {
    const api = client(await registerUser(ctx.app));
    // Made before the webhook, so the webhook hears of the reminder alone.
    await todoRemindingSoon(api, 'Water the plants');
    await api.create({ kind: 'ntfy', name: 'n', url: `${receivers.origin}/ntfy`, topic: 'todo' });
    await api.create({
      kind: 'gotify',
      name: 'g',
      url: `${receivers.origin}/gotify`,
      token: GOTIFY_TOKEN,
    });
    await api.create({
      kind: 'pushover',
      name: 'p',
      userKey: PUSHOVER_USER,
      token: PUSHOVER_TOKEN,
    });
    await webhook(api, 'reminders');

    advance(29 * 60_000);
    await ctx.app.sendDueReminders();
    await tick();
    expect(receivers.received).toEqual([]);

    advance(60_000);
    await ctx.app.sendDueReminders();
    await tick();
    expect(receivers.received.map((message) => message.service).sort()).toEqual([
      'gotify',
      'ntfy',
      'pushover',
      'webhook',
    ]);
    const byService = new Map(receivers.received.map((m) => [m.service, m.fields]));
    expect(byService.get('ntfy')).toMatchObject({
      topic: 'todo',
      title: 'Reminder: Water the plants',
    });
    expect(byService.get('pushover')).toMatchObject({ title: 'Reminder: Water the plants' });
    const payload = byService.get('webhook');
    expect(Value.Check(WebhookPayloadSchema, payload)).toBe(true);
    expect(payload).toMatchObject({ type: 'reminder.fired', data: { title: 'Water the plants' } });
    expect(receivers.refused).toEqual([]);
  });

  it('retries a webhook after the receiver fails twice, with the same webhook-id', async () => {
    const api = client(await registerUser(ctx.app));
    await todoRemindingSoon(api, 'Flaky');
    const hook = await webhook(api, 'flaky');
    receivers.failNext('flaky', 2);
    advance(30 * 60_000);
    await ctx.app.sendDueReminders();

    expect(await tick()).toMatchObject({ retried: 1 });
    advance(5_000);
    expect(await tick()).toMatchObject({ retried: 1 });
    // Not yet due again: nothing is attempted.
    advance(60_000);
    expect(await tick()).toEqual({ sent: 0, failed: 0, retried: 0 });
    advance(4 * 60_000);
    expect(await tick()).toMatchObject({ sent: 1 });

    expect(receivers.received).toHaveLength(1);
    const [log] = (await api.deliveries(hook.id)).expectBody(200);
    expect(log).toMatchObject({ state: 'sent', attempt: 3, status: 204, event: 'reminder.fired' });

    // Redeliver: the same message again, with the same webhook-id.
    const again = (await api.redeliver(log?.id ?? 0)).expectBody(200);
    expect(again).toMatchObject({ state: 'pending', attempt: 0 });
    await tick();
    expect(receivers.received).toHaveLength(2);
    expect(receivers.received[1]?.headers['webhook-id']).toBe(
      receivers.received[0]?.headers['webhook-id'],
    );
  });

  it('turns a webhook off after 3 days of failures and tells its owner', async () => {
    const user = await registerUser(ctx.app);
    const api = client(user);
    const hook = await webhook(api, 'down');
    receivers.failAlways('down', true);
    // A reminder a day: each fails through its whole retry schedule.
    for (let day = 0; day < 4; day += 1) {
      await todoRemindingSoon(api, `Day ${day}`);
      advance(30 * 60_000);
      await ctx.app.sendDueReminders();
      for (let step = 0; step < 23.5 * 4; step += 1) {
        await tick();
        advance(15 * 60_000);
      }
    }
    const [channel] = (await api.list()).expectBody(200);
    expect(channel).toMatchObject({
      id: hook.id,
      enabled: false,
      disabledReason: 'Turned off after failing for 3 days',
    });
    const log = (await api.deliveries(hook.id)).expectBody(200);
    expect(log.map((delivery) => delivery.state)).toContain('failed');
    expect(log.every((delivery) => delivery.state !== 'pending')).toBe(true);
    expect(receivers.received).toEqual([]);
    const told = smtp.received.filter((mail) => mail.to.includes(user.email));
    expect(told.map((mail) => mail.subject)).toContain('Tally turned off the channel "down"');

    // Turned on again, it takes messages again.
    receivers.failAlways('down', false);
    expect((await api.update(hook.id, { enabled: true })).statusCode).toBe(200);
    await todoRemindingSoon(api, 'Back');
    advance(30 * 60_000);
    await ctx.app.sendDueReminders();
    // The todo's creation and its reminder.
    expect(await tick()).toMatchObject({ sent: 2 });
  });

  it('sends each delivery once with two processes on one database', async () => {
    const other = await createTestApp({
      database,
      clock: ctx.clock,
      config: { outboundAllowPrivate: true },
    });
    try {
      const api = client(await registerUser(ctx.app));
      await webhook(api, 'twice');
      for (let n = 0; n < 10; n += 1) await todoRemindingSoon(api, `Once ${n}`);
      advance(30 * 60_000);
      await Promise.all([ctx.app.sendDueReminders(), other.app.sendDueReminders()]);
      await Promise.all([tick(), other.app.sendDueNotifications(), tick()]);
      // Ten creations and ten reminders, each once.
      const ids = receivers.received.map((message) => message.headers['webhook-id']);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
      const reminders = receivers.received.filter((m) => m.fields.type === 'reminder.fired');
      expect(reminders).toHaveLength(10);
    } finally {
      await other.close();
    }
  });

  it('sends nothing to a private address unless the operator allows it', async () => {
    const strict = await createTestApp({ database, clock: ctx.clock });
    try {
      const user = await registerUser(ctx.app);
      const refused = await client(user, strict.app).create({
        kind: 'webhook',
        name: 'inside',
        url: `${receivers.origin}/hooks/inside`,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ error: string }>().error).toBe('url must be on a public address');
      for (const url of ['http://localhost:1/', 'http://169.254.169.254/', 'http://10.0.0.1/']) {
        const answer = await client(user, strict.app).create({ kind: 'webhook', name: 'x', url });
        expect(answer.statusCode).toBe(400);
      }

      // Saved where private addresses were allowed, then sent by a process where they are not.
      const api = client(user);
      await todoRemindingSoon(api, 'Inside');
      const hook = await webhook(api, 'inside');
      const test = (await client(user, strict.app).test(hook.id)).expectBody(200);
      expect(test).toMatchObject({ ok: false, status: null });
      advance(30 * 60_000);
      await strict.app.sendDueReminders();
      expect(await strict.app.sendDueNotifications()).toMatchObject({ retried: 1 });
      expect(receivers.received).toEqual([]);
      const [log] = (await api.deliveries(hook.id)).expectBody(200);
      expect(log?.error).toContain('url must be on a public address');
    } finally {
      await strict.close();
    }
  });
});

/** The reminders mailed to the user so far (registration's own mail left out). */
const remindersMailed = (user: TestUser) =>
  smtp.received.filter(
    (mail) => mail.to.includes(user.email) && mail.subject.startsWith('Reminder: '),
  );

/** The account's address as verified by the link Tally mails (set directly: not under test here). */
async function verified(user: TestUser) {
  await ctx.database.handle.db
    .updateTable('users')
    .set({ email_verified_at: ctx.clock.now() })
    .where('id', '=', user.id)
    .execute();
  return user;
}

describe('e-mail channel', () => {
  it('needs a verified address, and a test arrives there', async () => {
    const user = await registerUser(ctx.app);
    const api = client(user);
    const refused = await api.create({ kind: 'email', name: 'Mail' });
    expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([
      400,
      'kind: e-mail reminders need a verified e-mail address',
    ]);
    await verified(user);
    const created = await api.create({ kind: 'email', name: 'Mail', url: 'https://ignored/' });
    expect(created.statusCode).toBe(201);
    const { channel } = created.json<{ channel: Channel }>();
    expect(channel).toMatchObject({ kind: 'email', url: null, tokenHint: null });
    const result = (await api.test(channel.id)).expectBody(200);
    expect(result).toEqual({ ok: true, status: null, answer: `sent to ${user.email}` });
    expect(remindersMailed(user).map((mail) => mail.subject)).toEqual([
      'Reminder: A test from Tally',
    ]);
  });

  it("sends a todo's reminder by e-mail within a minute of its time", async () => {
    const user = await verified(await registerUser(ctx.app));
    const api = client(user);
    await todoRemindingSoon(api, 'Post the letter');
    expect((await api.create({ kind: 'email', name: 'Mail' })).statusCode).toBe(201);
    advance(29 * 60_000);
    await ctx.app.sendDueReminders();
    await tick();
    expect(remindersMailed(user)).toEqual([]);
    advance(60_000);
    await ctx.app.sendDueReminders();
    expect(await tick()).toMatchObject({ sent: 1 });
    const [mail] = remindersMailed(user);
    expect(mail?.subject).toBe('Reminder: Post the letter');
    expect(mail?.text).toContain('Due ');
    expect(mail?.html).toContain('<p>Due ');
  });
});

/** Quiet hours from the clock's present hour in Tokyo (UTC+9, no summer time), for `hours`. */
function quietNow(hours: number) {
  const hour = (new Date(ctx.clock.now()).getUTCHours() + 9) % 24;
  const pad = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
  return { start: pad(hour), end: pad(hour + hours) };
}

describe('quiet hours', () => {
  it('are kept per user and checked', async () => {
    const api = client(await registerUser(ctx.app));
    const call = await api.raw();
    expect((await call(notificationsApi.settings)).expectBody(200)).toEqual({
      quietHours: null,
      digestTime: null,
      timeZone: 'UTC',
    });
    const set = await call(notificationsApi.updateSettings, {
      body: { quietHours: { start: '22:00', end: '07:00' } },
    });
    expect(set.expectBody(200)).toMatchObject({ quietHours: { start: '22:00', end: '07:00' } });
    const bad = await call.unchecked(notificationsApi.updateSettings, {
      body: { quietHours: { start: '25:00', end: '07:00' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toContain('quietHours');
    const same = await call.unchecked(notificationsApi.updateSettings, {
      body: { quietHours: { start: '07:00', end: '07:00' } },
    });
    expect(same.json<{ error: string }>().error).toBe('quietHours: start and end must differ');
  });

  it('hold every channel back until they end, while the open app still shows the reminder', async () => {
    const user = await verified(await registerUser(ctx.app));
    const api = client(user);
    const call = await api.raw();
    const quiet = quietNow(2);
    // Read in the account's zone, not the server's.
    await call(accountApi.setPreferences, { body: { timeZone: 'Asia/Tokyo' } });
    const settings = await call(notificationsApi.updateSettings, { body: { quietHours: quiet } });
    expect(settings.expectBody(200)).toMatchObject({ quietHours: quiet, timeZone: 'Asia/Tokyo' });
    await todoRemindingSoon(api, 'Quietly');
    await api.create({ kind: 'ntfy', name: 'n', url: `${receivers.origin}/ntfy`, topic: 'quiet' });
    await api.create({ kind: 'email', name: 'Mail' });
    advance(30 * 60_000);
    expect(await ctx.app.sendDueReminders()).toMatchObject({ claimed: 1 });
    expect(await tick()).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(receivers.received).toEqual([]);
    expect(remindersMailed(user)).toEqual([]);
    const recent = (await (await api.raw())(remindersApi.recent, { query: {} })).expectBody(200);
    expect(recent.map((reminder) => reminder.title)).toEqual(['Quietly']);

    // At the end of the quiet hours, out they go.
    const hour = 3600_000;
    const end = Math.floor((ctx.clock.now() - 30 * 60_000) / hour) * hour + 2 * hour;
    advance(end - ctx.clock.now() - 60_000);
    await ctx.app.sendDueReminders();
    expect(await tick()).toEqual({ sent: 0, failed: 0, retried: 0 });
    advance(60_000);
    expect(await tick()).toMatchObject({ sent: 2 });
    expect(receivers.received.map((message) => message.fields.title)).toEqual([
      'Reminder: Quietly',
    ]);
    expect(remindersMailed(user).map((mail) => mail.subject)).toEqual(['Reminder: Quietly']);
  });
});

/** The path of a link in a mail or an ntfy action, for inject. */
const pathOf = (url: string) => {
  const { pathname, search } = new URL(url);
  return pathname + search;
};

function mailLink(text: string, label: string) {
  const match = new RegExp(`${label}: (https://\\S+)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${label} link in ${text}`);
  return match[1];
}

describe('reminder actions without signing in', () => {
  it('completes from an e-mail link once, and then every link of it refuses', async () => {
    const user = await verified(await registerUser(ctx.app));
    const api = client(user);
    await todoRemindingSoon(api, 'Call the bank');
    await api.create({ kind: 'email', name: 'Mail' });
    advance(30 * 60_000);
    await ctx.app.sendDueReminders();
    await tick();
    const [mail] = remindersMailed(user);
    const complete = pathOf(mailLink(mail?.text ?? '', 'Complete'));
    const snooze = pathOf(mailLink(mail?.text ?? '', 'Snooze 1 hour'));
    expect(mail?.html).toContain('>Complete</a>');

    // Opening the link (a mail scanner does) changes nothing: the page has the button.
    const page = await ctx.app.inject({ method: 'GET', url: complete });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<form method="post"><button type="submit">Complete</button>');
    const todos = async () =>
      ((await (await api.raw())(todosApi.list, { query: {} })).expectBody(200) as Todo[]).filter(
        (todo) => todo.title === 'Call the bank',
      );
    expect((await todos())[0]?.completed).toBe(false);

    // The button's post, as a browser sends it.
    const done = await ctx.app.inject({
      method: 'POST',
      url: complete,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect([done.statusCode, done.body]).toEqual([200, expect.stringContaining('Completed.')]);
    expect((await todos())[0]?.completed).toBe(true);

    for (const url of [complete, snooze]) {
      const again = await ctx.app.inject({ method: 'POST', url });
      expect(again.statusCode).toBe(410);
    }
    const forged = await ctx.app.inject({ method: 'POST', url: `${complete.slice(0, -3)}abc` });
    expect(forged.statusCode).toBe(404);
  });

  it('snoozes from an ntfy action button once, and the reminder comes back', async () => {
    const api = client(await registerUser(ctx.app));
    await todoRemindingSoon(api, 'Stretch');
    await api.create({ kind: 'ntfy', name: 'n', url: `${receivers.origin}/ntfy`, topic: 'acts' });
    advance(30 * 60_000);
    await ctx.app.sendDueReminders();
    await tick();
    expect(receivers.refused).toEqual([]);
    const [message] = receivers.received;
    const actions = message?.fields.actions as { label: string; url: string; method: string }[];
    expect(actions.map((action) => [action.label, action.method])).toEqual([
      ['Complete', 'POST'],
      ['Snooze 10 min', 'POST'],
      ['Snooze 1 hour', 'POST'],
    ]);
    const snooze = pathOf(actions[1]?.url ?? '');
    // ntfy posts with no body.
    const done = await ctx.app.inject({ method: 'POST', url: snooze });
    expect([done.statusCode, done.body]).toEqual([
      200,
      expect.stringContaining('comes back in 10 minutes'),
    ]);
    expect((await ctx.app.inject({ method: 'POST', url: snooze })).statusCode).toBe(410);

    advance(9 * 60_000);
    expect(await ctx.app.sendDueReminders()).toMatchObject({ claimed: 0 });
    advance(60_000);
    expect(await ctx.app.sendDueReminders()).toMatchObject({ claimed: 1 });
    await tick();
    expect(receivers.received.map((m) => m.fields.title)).toEqual([
      'Reminder: Stretch',
      'Reminder: Stretch',
    ]);
  });
});

describe('delivery metrics and pruning', () => {
  it('counts attempts by channel and outcome on /metrics', async () => {
    const metered = await createTestApp({
      database,
      clock: ctx.clock,
      config: { outboundAllowPrivate: true, metricsToken: 'metrics-token-for-the-test' },
    });
    try {
      const api = client(await registerUser(ctx.app));
      await todoRemindingSoon(api, 'Counted');
      await api.create({
        kind: 'ntfy',
        name: 'n',
        url: `${receivers.origin}/ntfy`,
        topic: 'count',
      });
      await webhook(api, 'counted');
      receivers.failNext('counted', 1);
      advance(30 * 60_000);
      await metered.app.sendDueReminders();
      await metered.app.sendDueNotifications();
      advance(5_000);
      await metered.app.sendDueNotifications();
      const scrape = await metered.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer metrics-token-for-the-test' },
      });
      const lines = scrape.body
        .split('\n')
        .filter((line) => line.startsWith('tally_notification_deliveries_total{'));
      expect(lines.sort()).toEqual([
        'tally_notification_deliveries_total{channel="ntfy",outcome="sent"} 1',
        'tally_notification_deliveries_total{channel="webhook",outcome="retried"} 1',
        'tally_notification_deliveries_total{channel="webhook",outcome="sent"} 1',
      ]);
    } finally {
      await metered.close();
    }
  });

  it('removes finished deliveries after 30 days and keeps what is pending', async () => {
    const api = client(await registerUser(ctx.app));
    const hook = await webhook(api, 'pruned');
    await api.createTodo({ title: 'Old news' });
    await tick();
    receivers.failAlways('pruned', true);
    advance(29 * 24 * 3600_000);
    await api.createTodo({ title: 'Still trying' });
    await tick();
    advance(2 * 24 * 3600_000);
    await ctx.app.pruneNotifications();
    const log = (await api.deliveries(hook.id)).expectBody(200);
    expect(log.map((delivery) => delivery.state)).toEqual(['pending']);
    receivers.failAlways('pruned', false);
  });
});

describe('daily digest', () => {
  const tokyo = (instant: number) => ({
    date: new Date(instant).toLocaleDateString('en-CA', { timeZone: 'Asia/Tokyo' }),
    time: new Date(instant).toLocaleTimeString('en-GB', {
      timeZone: 'Asia/Tokyo',
      hour: '2-digit',
      minute: '2-digit',
    }),
  });
  const digests = (user: TestUser) =>
    smtp.received.filter(
      (mail) => mail.to.includes(user.email) && mail.subject.startsWith('Tally for '),
    );

  it('goes out once at the time picked in the user zone, with one-click unsubscribe', async () => {
    const user = await verified(await registerUser(ctx.app));
    const api = client(user);
    const call = await api.raw();
    await call(accountApi.setPreferences, { body: { timeZone: 'Asia/Tokyo' } });
    expect((await call(notificationsApi.settings)).expectBody(200).digestTime).toBeNull();

    const done = (await api.createTodo({ title: 'Done yesterday' })).json<{ id: number }>();
    await (
      await api.raw()
    ).unchecked(todosApi.patch, {
      params: { id: done.id },
      body: { completed: true },
    });
    advance(24 * 3600_000);
    const today = tokyo(ctx.clock.now()).date;
    const yesterday = tokyo(ctx.clock.now() - 24 * 3600_000).date;
    await api.createTodo({ title: 'Late <report>', dueDate: yesterday });
    await api.createTodo({ title: 'Dentist', dueDate: today, dueTime: '23:59' });
    await api.createTodo({ title: 'Begin the garden', startDate: today });

    const at = tokyo(ctx.clock.now() + 2 * 60_000).time;
    await (
      await api.raw()
    )(notificationsApi.updateSettings, { body: { digestTime: at } });
    expect(await ctx.app.sendDueDigests()).toBe(0);

    const other = await createTestApp({
      database,
      clock: ctx.clock,
      config: {
        smtpUrl: smtp.url,
        mailFrom: 'Tally <tally@example.com>',
        publicUrl: 'https://tally.example.com',
      },
    });
    try {
      advance(2 * 60_000);
      const counts = await Promise.all([ctx.app.sendDueDigests(), other.app.sendDueDigests()]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      advance(60_000);
      expect(await other.app.sendDueDigests()).toBe(0);
    } finally {
      await other.close();
    }
    const [mail] = digests(user);
    expect(digests(user)).toHaveLength(1);
    expect(mail?.subject).toBe(`Tally for ${today}: 1 overdue, 1 due today`);
    expect(mail?.text).toContain(`Overdue:\n- Late <report> (due ${yesterday})`);
    expect(mail?.text).toContain('Due today:\n- Dentist at 23:59');
    expect(mail?.text).toContain('Starting today:\n- Begin the garden');
    expect(mail?.text).toContain('Yesterday you completed 1 todo; your streak is 1 day.');
    expect(mail?.html).toContain('<li>Late &lt;report&gt; (due ');
    expect(mail?.headers['list-unsubscribe-post']).toBe(
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );
    // A long header is folded over lines.
    const unsubscribe = /List-Unsubscribe:\s*<(https:\/\/[^>]+)>/.exec(
      (mail?.headers['list-unsubscribe'] ?? '').replace(/\r?\n\s+/g, ''),
    )?.[1];
    expect(unsubscribe).toBeDefined();
    expect(mail?.text).toContain(`Stop these e-mails: ${unsubscribe}`);

    // What a mail client does for one-click unsubscribe (RFC 8058).
    const answer = await ctx.app.inject({
      method: 'POST',
      url: pathOf(unsubscribe ?? ''),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(answer.statusCode).toBe(200);
    expect(
      (await (await api.raw())(notificationsApi.settings)).expectBody(200).digestTime,
    ).toBeNull();
    advance(24 * 3600_000);
    expect(await ctx.app.sendDueDigests()).toBe(0);
  });

  it('a digest the SMTP server refused goes out at a later round, once', async () => {
    const user = await verified(await registerUser(ctx.app));
    const call = await client(user).raw();
    await call(accountApi.setPreferences, { body: { timeZone: 'Asia/Tokyo' } });
    const at = tokyo(ctx.clock.now() + 60_000).time;
    await call(notificationsApi.updateSettings, { body: { digestTime: at } });
    advance(60_000);
    smtp.refuse = true;
    try {
      expect(await ctx.app.sendDueDigests()).toBe(0);
    } finally {
      smtp.refuse = false;
    }
    expect(digests(user)).toHaveLength(0);
    // It waits a minute after the failure, then goes, and only once.
    expect(await ctx.app.sendDueDigests()).toBe(0);
    advance(60_000);
    expect(await ctx.app.sendDueDigests()).toBe(1);
    advance(60_000);
    expect(await ctx.app.sendDueDigests()).toBe(0);
    expect(digests(user)).toHaveLength(1);
  });
});

describe("in the account's language", () => {
  it('writes a reminder to each channel, by e-mail and on its pages in the language', async () => {
    const user = await verified(await registerUser(ctx.app));
    const api = client(user);
    await (
      await api.raw()
    )(accountApi.setPreferences, { body: { language: 'de' } });
    await todoRemindingSoon(api, 'Blumen gießen');
    await api.create({ kind: 'ntfy', name: 'n', url: `${receivers.origin}/ntfy`, topic: 'de' });
    await api.create({
      kind: 'gotify',
      name: 'g',
      url: `${receivers.origin}/gotify`,
      token: GOTIFY_TOKEN,
    });
    await api.create({ kind: 'email', name: 'Mail' });
    advance(30 * 60_000);
    await ctx.app.sendDueReminders();
    await tick();
    expect(receivers.refused).toEqual([]);
    const byService = new Map(receivers.received.map((m) => [m.service, m.fields]));
    // The due date as German writes it, in the zone the reminder was set in.
    const due = /^Fällig am \d{2}\.\d{2}\.\d{4} um \d{2}:\d{2}$/;
    expect(byService.get('gotify')).toMatchObject({ title: 'Erinnerung: Blumen gießen' });
    expect(byService.get('gotify')?.message).toMatch(due);
    const ntfy = byService.get('ntfy');
    expect(ntfy).toMatchObject({ title: 'Erinnerung: Blumen gießen' });
    expect(ntfy?.message).toMatch(due);
    expect((ntfy?.actions as { label: string }[]).map((action) => action.label)).toEqual([
      'Erledigen',
      'In 10 Min. erinnern',
      'In 1 Stunde erinnern',
    ]);

    const mail = smtp.received.find(
      (m) => m.to.includes(user.email) && m.subject === 'Erinnerung: Blumen gießen',
    );
    expect(mail?.text).toMatch(/^Fällig am \d{2}\.\d{2}\.\d{4} um \d{2}:\d{2}\n/);
    expect(mail?.html).toContain('>Erledigen</a>');
    expect(mail?.html).toContain('>Morgen</a>');

    // The link's pages speak the account's language, whatever the browser asks for.
    const complete = pathOf(mailLink(mail?.text ?? '', 'Erledigen'));
    const page = await ctx.app.inject({
      method: 'GET',
      url: complete,
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    });
    expect(page.headers['content-language']).toBe('de');
    expect(page.body).toContain('<html lang="de" dir="ltr">');
    expect(page.body).toContain('<button type="submit">Erledigen</button>');
    const done = await ctx.app.inject({ method: 'POST', url: complete });
    expect([done.statusCode, done.body]).toEqual([
      200,
      expect.stringContaining('<p>Erledigt.</p>'),
    ]);
    const again = await ctx.app.inject({ method: 'POST', url: complete });
    expect([again.statusCode, again.body]).toEqual([
      410,
      expect.stringContaining('Dieser Link wurde schon verwendet'),
    ]);
    // A link that names nobody answers in the browser's language.
    const forged = await ctx.app.inject({
      method: 'GET',
      url: `${complete.slice(0, -3)}abc`,
      headers: { 'accept-language': 'nl-NL, fr;q=0.8' },
    });
    expect([forged.statusCode, forged.body]).toEqual([
      404,
      expect.stringContaining('<h1>Ce lien ne fonctionne pas</h1>'),
    ]);
  });

  it("sends the daily digest in the account's language, its dates in the language", async () => {
    const user = await verified(await registerUser(ctx.app));
    const api = client(user);
    const call = await api.raw();
    await call(accountApi.setPreferences, { body: { timeZone: 'UTC', language: 'de' } });
    const day = (offset: number) =>
      new Date(ctx.clock.now() + offset * 24 * 3600_000).toISOString().slice(0, 10);
    await api.createTodo({ title: 'Steuer', dueDate: day(-2) });
    await api.createTodo({ title: 'Zahnarzt', dueDate: day(0), dueTime: '23:59' });
    const at = new Date(ctx.clock.now() + 2 * 60_000).toISOString().slice(11, 16);
    await call(notificationsApi.updateSettings, { body: { digestTime: at } });
    advance(2 * 60_000);
    expect(await ctx.app.sendDueDigests()).toBe(1);
    const mail = smtp.received.find(
      (m) => m.to.includes(user.email) && m.subject.startsWith('Tally für '),
    );
    const german = (iso: string) =>
      new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date(`${iso}T00:00:00Z`),
      );
    expect(german(day(0))).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(mail?.subject).toBe(`Tally für ${german(day(0))}: 1 überfällig, 1 heute fällig`);
    expect(mail?.text).toContain(`Überfällig:\n- Steuer (fällig am ${german(day(-2))})`);
    expect(mail?.text).toContain('Heute fällig:\n- Zahnarzt um 23:59');
    expect(mail?.text).toContain('Gestern hast du 0 Aufgaben erledigt.');
    expect(mail?.text).toContain('Tally öffnen: https://tally.example.com/todos');
    expect(mail?.html).toContain('<html lang="de" dir="ltr">');
    expect(mail?.html).toContain('<h2 style="font-size:16px;margin:16px 0 4px">Überfällig</h2>');
    expect(mail?.html).not.toMatch(/Overdue|Due today|Open Tally/);
  });
});

describe('webhook events from every path', () => {
  const dav = davRequester(() => ctx.app);

  it('tells a webhook of changes made in bulk and over CalDAV', async () => {
    const account = await davAccount(ctx.app);
    const api = client(account);
    await webhook(api, 'paths');
    const ids: number[] = [];
    for (const title of ['One', 'Two']) {
      ids.push((await api.createTodo({ title })).json<{ id: number }>().id);
    }
    const call = await api.raw();
    await call.unchecked(todosApi.bulk, { body: { action: 'complete', ids } });
    await call.unchecked(todosApi.bulk, { body: { action: 'delete', ids: [ids[0] ?? 0] } });
    const put = await dav(
      account,
      'PUT',
      `${account.home}todos/paths.ics`,
      davVtodo('paths', ['SUMMARY:From the phone']),
    );
    expect(put.statusCode).toBe(201);
    await dav(
      account,
      'PUT',
      `${account.home}todos/paths.ics`,
      davVtodo('paths', ['SUMMARY:Changed on the phone']),
    );
    expect((await dav(account, 'DELETE', `${account.home}todos/paths.ics`)).statusCode).toBe(204);
    await tick();

    const events = receivers.received
      .filter((message) => message.path === '/hooks/paths')
      .map((message) => message.fields as { type: string; data: { title: string } });
    for (const payload of events) expect(Value.Check(WebhookPayloadSchema, payload)).toBe(true);
    // Deliveries go out side by side: their order is not kept.
    expect(events.map((payload) => `${payload.type} ${payload.data.title}`).sort()).toEqual(
      [
        'todo.created One',
        'todo.created Two',
        'todo.completed One',
        'todo.completed Two',
        'todo.deleted One',
        'todo.created From the phone',
        'todo.updated Changed on the phone',
        'todo.deleted Changed on the phone',
      ].sort(),
    );
  });

  it('tells a webhook of the todos an import created, and of none for a preview', async () => {
    const user = await registerUser(ctx.app);
    await webhook(client(user), 'imports');
    const ics = [
      davVtodo('imp-1', ['SUMMARY:Imported one']),
      davVtodo('imp-2', ['SUMMARY:Imported two']),
    ].join('');
    await imported(ctx.app, user, ics, 'ics', true);
    await tick();
    expect(receivers.received).toEqual([]);
    const report = await imported(ctx.app, user, ics, 'ics');
    expect(report.todos.created).toBe(2);
    await tick();
    const titles = receivers.received.map(
      (message) =>
        `${String(message.fields.type)} ${(message.fields.data as { title: string }).title}`,
    );
    expect(titles.sort()).toEqual(['todo.created Imported one', 'todo.created Imported two']);
  });
});
