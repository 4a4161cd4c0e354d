import { statSync } from 'node:fs';
import path from 'node:path';
import {
  accountApi,
  type PushKey,
  type Reminder,
  remindersApi,
  type Todo,
  todosApi,
  trashApi,
} from '@tally/contract';
import { createVerify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { startLocalPushService, type LocalPushService } from '../test/local-push-service.js';
import { REMINDER_BATCH } from './service.js';

/**
 * Reminders end to end on the server (docs/product.md, Reminders): scheduling from the todo
 * calls, delivery by Web Push to a push service on loopback (each message decrypted with the
 * subscription's keys, as the browser would), once across two app instances on one database,
 * after a restart, and along a repeat.
 */

let database: TestDatabase;
let ctx: TestContext;
let push: LocalPushService;
beforeAll(async () => {
  database = await createTestDatabase();
  ctx = await createTestApp({ database });
  push = await startLocalPushService();
});
afterAll(async () => {
  await ctx.close();
  await push.close();
  await database.drop();
});

function client(user: TestUser, zone = 'Europe/Berlin') {
  const call = apiClient(ctx.app, user);
  const headers = { 'x-time-zone': zone };
  return {
    user,
    create: (payload: object) => call.unchecked(todosApi.create, { body: payload, headers }),
    update: (id: number, payload: object) =>
      call.unchecked(todosApi.update, { params: { id }, body: payload, headers }),
    skip: (id: number) => call(todosApi.skip, { params: { id }, headers }),
    remove: (id: number) => call(todosApi.remove, { params: { id }, headers }),
    subscribe: (payload: object) => call.unchecked(remindersApi.subscribe, { body: payload }),
    unsubscribe: (endpoint: string) => call(remindersApi.unsubscribe, { body: { endpoint } }),
    bulk: (payload: object) => call.unchecked(todosApi.bulk, { body: payload, headers }),
    restore: (id: number) => call(trashApi.restore, { params: { id }, headers }),
    recent: (after?: string) => call(remindersApi.recent, { query: after ? { after } : {} }),
  };
}

/** A user with one subscribed browser, signed in at the clock's time. */
async function subscribedUser() {
  const user = await registerUser(ctx.app);
  const browser = push.browser();
  const api = client(user);
  expect((await api.subscribe(browser.subscription)).statusCode).toBe(204);
  return { user, api, browser };
}

const tick = () => ctx.app.sendDueReminders();

describe('remindMinutesBefore', () => {
  it('is kept with a due time, answered null otherwise, and needs a due time', async () => {
    ctx.clock.set('2026-03-10T08:00:00Z');
    const api = client(await registerUser(ctx.app));
    const created = await api.create({
      title: 'Call the dentist',
      dueDate: '2026-03-10',
      dueTime: '15:00',
      remindMinutesBefore: 30,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ dueTime: '15:00', remindMinutesBefore: 30 });
    expect((await api.create({ title: 'Plain' })).json<Todo>().remindMinutesBefore).toBeNull();

    const refused = await api.create({
      title: 'No time',
      dueDate: '2026-03-10',
      remindMinutesBefore: 0,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: string }>().error).toMatch(/remindMinutesBefore/);
    for (const bad of [-1, 10_081, 1.5, '5']) {
      const answer = await api.create({
        title: 'Bad',
        dueDate: '2026-03-10',
        dueTime: '10:00',
        remindMinutesBefore: bad,
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json<{ error: string }>().error).toMatch(/remindMinutesBefore/);
    }

    const { id } = created.json<Todo>();
    // A client that knows only the original API's fields leaves it as it is…
    const spec = await api.update(id, { title: 'Call the dentist', completed: false });
    expect(spec.json<Todo>().remindMinutesBefore).toBe(30);
    // …clearing the due time clears it, and null clears it.
    const cleared = await api.update(id, {
      title: 'Call the dentist',
      completed: false,
      dueTime: null,
    });
    expect(cleared.json<Todo>()).toMatchObject({ dueTime: null, remindMinutesBefore: null });
  });
});

describe('reminders (several per todo)', () => {
  it('are kept each once, largest first, with remindMinutesBefore their first; 400s name the field', async () => {
    ctx.clock.set('2026-03-10T08:00:00Z');
    const api = client(await registerUser(ctx.app));
    const at = { dueDate: '2026-03-11', dueTime: '15:00' };
    const created = await api.create({ title: 'Flight', ...at, reminders: [0, 1440, 60, 0] });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ reminders: [1440, 60, 0], remindMinutesBefore: 1440 });
    const plain = (await api.create({ title: 'Plain' })).json<Todo>();
    expect(plain).toMatchObject({ reminders: [], remindMinutesBefore: null });

    const refusals: [object, RegExp][] = [
      [{ dueDate: '2026-03-11', reminders: [0] }, /^reminders need a dueTime/],
      [{ ...at, reminders: [0, 5, 10, 15, 30, 60] }, /reminders/],
      [{ ...at, reminders: [-1] }, /reminders/],
      [{ ...at, reminders: [10_081] }, /reminders/],
      [{ ...at, reminders: ['5'] }, /reminders/],
      [{ ...at, reminders: 5 }, /reminders/],
      [{ ...at, reminders: [60, 0], remindMinutesBefore: 0 }, /^remindMinutesBefore must be/],
    ];
    for (const [body, message] of refusals) {
      const answer = await api.create({ title: 'Bad', ...body });
      expect(answer.statusCode).toBe(400);
      expect(answer.json<{ error: string }>().error).toMatch(message);
    }
    // Both, agreeing: taken.
    const both = await api.create({
      title: 'Both',
      ...at,
      reminders: [0, 60],
      remindMinutesBefore: 60,
    });
    expect(both.json()).toMatchObject({ reminders: [60, 0], remindMinutesBefore: 60 });

    // A PATCH replaces the list; [] clears it.
    const { id } = created.json<Todo>();
    const call = apiClient(ctx.app, api.user);
    const patch = (body: object) =>
      call.unchecked(todosApi.patch, {
        params: { id },
        body,
        headers: { 'x-time-zone': 'Europe/Berlin' },
      });
    expect((await patch({ reminders: [30, 0] })).json()).toMatchObject({ reminders: [30, 0] });
    const refused = await patch({ reminders: [1, 2, 3, 4, 5, 6] });
    expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([
      400,
      expect.stringMatching(/reminders/),
    ]);
    expect((await patch({ reminders: [] })).json()).toMatchObject({
      reminders: [],
      remindMinutesBefore: null,
    });
  });

  it("an old client's remindMinutesBefore changes only the first reminder; null removes only it", async () => {
    ctx.clock.set('2026-03-10T08:00:00Z');
    const api = client(await registerUser(ctx.app));
    const fields = { title: 'Exam', dueDate: '2026-03-20', dueTime: '09:00' };
    const base = { ...fields, completed: false };
    const { id } = (await api.create({ ...fields, reminders: [1440, 0] })).json<Todo>();
    // A PUT that sends back what it read (the first reminder) changes nothing.
    const same = await api.update(id, { ...base, remindMinutesBefore: 1440 });
    expect(same.json()).toMatchObject({ reminders: [1440, 0], remindMinutesBefore: 1440 });
    // One that knows nothing of reminders leaves them.
    expect((await api.update(id, base)).json<Todo>().reminders).toEqual([1440, 0]);
    // A new offset replaces the first and keeps the one it cannot see.
    const moved = await api.update(id, { ...base, remindMinutesBefore: 120 });
    expect(moved.json()).toMatchObject({ reminders: [120, 0], remindMinutesBefore: 120 });
    // Null removes the first only: the next is then what it reads.
    const removed = await api.update(id, { ...base, remindMinutesBefore: null });
    expect(removed.json()).toMatchObject({ reminders: [0], remindMinutesBefore: 0 });
    // Clearing the due time clears them all, as it cleared the one.
    const cleared = await api.update(id, { ...base, dueTime: null });
    expect(cleared.json()).toMatchObject({ reminders: [], remindMinutesBefore: null });
  });

  it('each goes out once at its own time; adding one sends none again; snooze brings back one', async () => {
    // 13:00 in Berlin on 10 March is 12:00 UTC.
    ctx.clock.set('2026-03-09T09:00:00Z');
    const { api, browser } = await subscribedUser();
    const todo = (
      await api.create({
        title: 'Dentist',
        dueDate: '2026-03-10',
        dueTime: '13:00',
        reminders: [0, 1440],
      })
    ).json<Todo>();

    ctx.clock.set('2026-03-09T11:59:59Z');
    expect((await tick()).claimed).toBe(0);
    ctx.clock.set('2026-03-09T12:00:00Z'); // a day before
    expect((await tick()).claimed).toBe(1);
    expect(browser.messages()).toHaveLength(1);
    ctx.clock.set('2026-03-09T18:00:00Z');
    expect((await tick()).claimed).toBe(0);

    // A third reminder: it alone is armed; the one that went out stays sent.
    const call = apiClient(ctx.app, await signInAgain(ctx.app, api.user));
    const headers = { 'x-time-zone': 'Europe/Berlin' };
    const patched = await call.unchecked(todosApi.patch, {
      params: { id: todo.id },
      body: { reminders: [1440, 60, 0] },
      headers,
    });
    expect(patched.json<Todo>().reminders, patched.body).toEqual([1440, 60, 0]);
    ctx.clock.set('2026-03-10T11:00:00Z'); // an hour before
    expect((await tick()).claimed).toBe(1);
    ctx.clock.set('2026-03-10T11:30:00Z');
    expect((await tick()).claimed).toBe(0);
    ctx.clock.set('2026-03-10T12:00:00Z'); // at the time
    expect((await tick()).claimed).toBe(1);
    expect(browser.messages().map((m) => (m as Reminder).firedAt)).toEqual([
      '2026-03-09T12:00:00.000Z',
      '2026-03-10T11:00:00.000Z',
      '2026-03-10T12:00:00.000Z',
    ]);

    // Snooze on the last one: it comes back once, ten minutes later, the others stay sent.
    const [, , last] = browser.messages() as { actions: { action: string; url: string }[] }[];
    const snooze = new URL(last?.actions.find((a) => a.action === 'snooze-10m')?.url ?? '');
    const posted = await ctx.app.inject({
      method: 'POST',
      url: `${snooze.pathname}${snooze.search}`,
    });
    expect(posted.statusCode).toBe(200);
    ctx.clock.set('2026-03-10T12:10:00Z');
    expect((await tick()).claimed).toBe(1);
    ctx.clock.set('2026-03-10T12:30:00Z');
    expect((await tick()).claimed).toBe(0);
    expect(browser.messages()).toHaveLength(4);
  });

  it('two reminders already due in one round make one notification', async () => {
    ctx.clock.set('2026-03-10T11:50:00Z');
    const { api, browser } = await subscribedUser();
    // 13:00 Berlin is 12:00 UTC: both 15 and 30 minutes before are past.
    await api.create({
      title: 'Late',
      dueDate: '2026-03-10',
      dueTime: '13:00',
      reminders: [15, 30],
    });
    expect((await tick()).claimed).toBe(2);
    expect(browser.messages()).toHaveLength(1);
    // The open app lists it once too.
    expect((await api.recent()).json<Reminder[]>().map((r) => r.title)).toEqual(['Late']);
  });
});

describe('subscriptions', () => {
  it('gives the VAPID public key, the same after a restart, kept owner-only in DATA_DIR', async () => {
    const user = await registerUser(ctx.app);
    const key = (await apiClient(ctx.app, user)(remindersApi.pushKey)).json<PushKey>();
    expect(Buffer.from(key.publicKey, 'base64url')).toHaveLength(65);
    const file = path.join(database.dataDir, 'vapid-keys.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await createTestApp({ database, clock: ctx.clock });
    try {
      const answer = await apiClient(again.app, user)(remindersApi.pushKey);
      expect(answer.json<PushKey>().publicKey).toBe(key.publicKey);
    } finally {
      await again.app.close();
    }
    expect((await apiClient(ctx.app, null)(remindersApi.pushKey)).statusCode).toBe(401);
  });

  it.each([
    ['http://push.example.com/x', /https/],
    ['https://127.0.0.1/x', /public/],
    ['https://10.1.2.3/x', /public/],
    ['https://[::1]/x', /public/],
    ['https://169.254.169.254/latest/meta-data', /public/],
    ['https://localhost/x', /public/],
    ['https://metadata/x', /public/],
    ['https://push.example.com:8443/x', /443/],
    ['https://user:pw@push.example.com/x', /credentials/],
    ['http://10.0.0.1:8080/x', /https/],
    ['not a url', /URL/],
  ])('refuses the endpoint %s (400, nothing kept)', async (endpoint, reason) => {
    const api = client(await registerUser(ctx.app));
    const keys = push.browser().subscription.keys;
    const answer = await api.subscribe({ endpoint, keys });
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ error: string }>().error).toMatch(reason);
    const kept = await database.handle.db
      .selectFrom('push_subscriptions')
      .select('id')
      .where('endpoint', '=', endpoint)
      .execute();
    expect(kept).toEqual([]);
  });

  it('refuses keys that are not a P-256 key and a 16-byte secret', async () => {
    const api = client(await registerUser(ctx.app));
    const { endpoint } = push.browser().subscription;
    const answer = await api.subscribe({ endpoint, keys: { p256dh: 'abc', auth: 'def' } });
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ error: string }>().error).toMatch(/p256dh/);
  });
});

describe('delivery', () => {
  it('pushes at the due time less the offset, in the zone it was meant in, once', async () => {
    // 13:00 in Berlin on 10 March is 12:00 UTC; 15 minutes before is 11:45 UTC.
    ctx.clock.set('2026-03-10T09:00:00Z');
    const { api, browser } = await subscribedUser();
    const todo = (
      await api.create({
        title: 'Team call',
        dueDate: '2026-03-10',
        dueTime: '13:00',
        remindMinutesBefore: 15,
      })
    ).json<Todo>();

    ctx.clock.set('2026-03-10T11:44:59Z');
    expect((await tick()).claimed).toBe(0);
    ctx.clock.set('2026-03-10T11:45:00Z');
    const round = await tick();
    expect(round.pushes.sent).toBe(1);
    expect(browser.messages()).toEqual([
      {
        todoId: todo.id,
        title: 'Team call',
        dueDate: '2026-03-10',
        dueTime: '13:00',
        firedAt: '2026-03-10T11:45:00.000Z',
        actions: [
          { action: 'complete', title: 'Complete', url: expect.stringContaining('token=') },
          { action: 'snooze-10m', title: 'Snooze 10 min', url: expect.stringContaining('token=') },
        ],
      },
    ]);
    ctx.clock.advance(60_000);
    expect((await tick()).claimed).toBe(0);
    expect(browser.messages()).toHaveLength(1);
  });

  it('carries Complete and Snooze buttons whose links the worker posts, once', async () => {
    ctx.clock.set('2026-03-10T09:00:00Z');
    const { user, api, browser } = await subscribedUser();
    const todo = (
      await api.create({
        title: 'Water the plants',
        dueDate: '2026-03-10',
        dueTime: '13:00',
        remindMinutesBefore: 0,
      })
    ).json<Todo>();
    ctx.clock.set('2026-03-10T12:00:00Z');
    await tick();
    const [message] = browser.messages() as { actions: { action: string; url: string }[] }[];
    const link = (action: string) => {
      const url = new URL(message?.actions.find((a) => a.action === action)?.url ?? '');
      return `${url.pathname}${url.search}`;
    };
    expect(link('complete')).toMatch(/^\/api\/notifications\/actions\?token=/);

    // The service worker's post, without a body or a session.
    const done = await ctx.app.inject({ method: 'POST', url: link('complete') });
    expect([done.statusCode, done.body]).toEqual([200, expect.stringContaining('Completed.')]);
    const again = apiClient(ctx.app, await signInAgain(ctx.app, user));
    const read = await again(todosApi.get, { params: { id: todo.id } });
    expect(read.json<Todo>().completed).toBe(true);
    // The reminder's links share one use.
    expect((await ctx.app.inject({ method: 'POST', url: link('snooze-10m') })).statusCode).toBe(
      410,
    );
  });

  it("writes the text and labels the buttons in the account's language", async () => {
    ctx.clock.set('2026-03-10T09:00:00Z');
    const { user, api, browser } = await subscribedUser();
    await apiClient(ctx.app, user)(accountApi.setPreferences, { body: { language: 'ja' } });
    await api.create({
      title: '花に水をやる',
      dueDate: '2026-03-10',
      dueTime: '13:00',
      remindMinutesBefore: 0,
    });
    ctx.clock.set('2026-03-10T12:00:00Z');
    await tick();
    const [message] = browser.messages() as {
      title: string;
      body: string;
      actions: { title: string }[];
    }[];
    expect(message?.title).toBe('花に水をやる');
    // The worker has no Japanese: the push carries the text, its date as Japanese writes it.
    expect(message?.body).toBe('期限 2026/03/10 13:00');
    expect(message?.actions.map((action) => action.title)).toEqual(['完了', '10 分後に再通知']);
  });

  it('signs each push with VAPID for the push service origin, with a TTL, high urgency and a topic per todo', async () => {
    ctx.clock.set('2026-03-11T09:00:00Z');
    const { user, api, browser } = await subscribedUser();
    const todo = (
      await api.create({
        title: 'Stretch',
        dueDate: '2026-03-11',
        dueTime: '10:30',
        remindMinutesBefore: 0,
      })
    ).json<Todo>();
    ctx.clock.set('2026-03-11T09:30:00Z');
    await tick();
    const received = push.received.filter((entry) => entry.path === browser.path);
    expect(received).toHaveLength(1);
    const { headers } = received[0] as (typeof received)[number];
    expect(headers['content-encoding']).toBe('aes128gcm');
    expect(headers.ttl).toBe('3600');
    expect(headers.urgency).toBe('high');
    expect(headers.topic).toBe(`todo-${todo.id}`);
    const key = (
      await apiClient(ctx.app, await signInAgain(ctx.app, user))(remindersApi.pushKey)
    ).json<PushKey>().publicKey;
    const match = /^vapid t=([^,]+), k=(.+)$/.exec(headers.authorization ?? '');
    expect(match?.[2]).toBe(key);
    const [head, payload, signature] = (match?.[1] ?? '').split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
      aud: string;
      sub: string;
    };
    expect(claims.aud).toBe(new URL(browser.subscription.endpoint).origin);
    expect(claims.sub).toMatch(/^(mailto:|https:)/);
    // ES256 over the JWT's first two parts, with the server's public key.
    const verifier = createVerify('SHA256').update(`${head}.${payload}`);
    const publicKey = {
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: Buffer.from(key, 'base64url').subarray(1, 33).toString('base64url'),
        y: Buffer.from(key, 'base64url').subarray(33).toString('base64url'),
      },
      format: 'jwk' as const,
      dsaEncoding: 'ieee-p1363' as const,
    };
    expect(verifier.verify(publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
  });

  it('reschedules when the due time or the offset changes; completing and deleting cancel', async () => {
    ctx.clock.set('2026-03-12T08:00:00Z');
    const { api, browser } = await subscribedUser();
    const base = { title: 'Water plants', dueDate: '2026-03-12' };
    const change = { ...base, completed: false };
    const moved = (
      await api.create({ ...base, dueTime: '10:00', remindMinutesBefore: 0 })
    ).json<Todo>();
    await api.update(moved.id, { ...change, dueTime: '11:00' });
    const done = (
      await api.create({ ...base, title: 'Done early', dueTime: '10:00', remindMinutesBefore: 0 })
    ).json<Todo>();
    await api.update(done.id, { ...change, title: 'Done early', completed: true });
    const gone = (
      await api.create({ ...base, title: 'Deleted', dueTime: '10:00', remindMinutesBefore: 0 })
    ).json<Todo>();
    expect((await api.remove(gone.id)).statusCode).toBe(204);
    const offset = (
      await api.create({ ...base, title: 'Offset', dueTime: '12:00', remindMinutesBefore: 0 })
    ).json<Todo>();
    await api.update(offset.id, { ...change, title: 'Offset', remindMinutesBefore: 90 });

    ctx.clock.set('2026-03-12T09:00:00Z'); // 10:00 in Berlin: nothing (all moved or cancelled)
    await tick();
    expect(browser.messages()).toEqual([]);
    ctx.clock.set('2026-03-12T09:30:00Z'); // 10:30: 90 minutes before 12:00
    await tick();
    ctx.clock.set('2026-03-12T10:00:00Z'); // 11:00
    await tick();
    expect(browser.messages().map((message) => (message as Reminder).title)).toEqual([
      'Offset',
      'Water plants',
    ]);
  });

  it('follows a repeat: after completing, the next occurrence reminds again', async () => {
    ctx.clock.set('2026-03-13T06:00:00Z');
    const { user, api, browser } = await subscribedUser();
    const todo = (
      await api.create({
        title: 'Take vitamins',
        dueDate: '2026-03-13',
        dueTime: '08:00',
        remindMinutesBefore: 5,
        repeat: { every: 1, unit: 'day', from: 'due' },
      })
    ).json<Todo>();
    ctx.clock.set('2026-03-13T06:55:00Z');
    await tick();
    const later = client(await signInAgain(ctx.app, user));
    const completed = await later.update(todo.id, { title: 'Take vitamins', completed: true });
    expect(completed.json<Todo>()).toMatchObject({ dueDate: '2026-03-14', completed: false });
    ctx.clock.set('2026-03-14T06:54:00Z');
    await tick();
    expect(browser.messages()).toHaveLength(1);
    ctx.clock.set('2026-03-14T06:55:00Z');
    await tick();
    // Skipping moves it on too.
    await client(await signInAgain(ctx.app, user)).skip(todo.id);
    ctx.clock.set('2026-03-15T06:55:00Z');
    await tick();
    expect(browser.messages().map((message) => (message as Reminder).dueDate)).toEqual([
      '2026-03-13',
      '2026-03-14',
      '2026-03-15',
    ]);
  });

  it('a trashed todo does not remind; restored, it does; bulk complete cancels and reopen re-arms', async () => {
    ctx.clock.set('2026-03-22T06:00:00Z');
    const { api, browser } = await subscribedUser();
    const make = async (title: string) =>
      (
        await api.create({ title, dueDate: '2026-03-22', dueTime: '09:00', remindMinutesBefore: 0 })
      ).json<Todo>().id;
    const [trashed, restored, bulkRestored, completed, reopened] = [
      await make('Trashed'),
      await make('Restored'),
      await make('Bulk restored'),
      await make('Completed'),
      await make('Reopened'),
    ];
    expect((await api.remove(trashed)).statusCode).toBe(204);
    expect((await api.remove(restored)).statusCode).toBe(204);
    expect((await api.restore(restored)).statusCode).toBe(200);
    await api.bulk({ action: 'delete', ids: [bulkRestored] });
    await api.bulk({ action: 'restore', ids: [bulkRestored] });
    await api.bulk({ action: 'complete', ids: [completed, reopened] });
    await api.bulk({ action: 'reopen', ids: [reopened] });
    ctx.clock.set('2026-03-22T08:00:00Z');
    await tick();
    expect(
      browser
        .messages()
        .map((message) => (message as Reminder).title)
        .sort(),
    ).toEqual(['Bulk restored', 'Reopened', 'Restored']);
  });

  it('a due date cleared in bulk takes the reminder with it, as a single edit does', async () => {
    ctx.clock.set('2026-03-23T06:00:00Z');
    const { api, browser } = await subscribedUser();
    const make = async (title: string) =>
      (
        await api.create({ title, dueDate: '2026-03-23', dueTime: '09:00', remindMinutesBefore: 0 })
      ).json<Todo>().id;
    const cleared = await make('Cleared in bulk');
    await make('Kept');
    expect((await api.bulk({ action: 'due', ids: [cleared], dueDate: null })).statusCode).toBe(200);
    ctx.clock.set('2026-03-23T08:00:00Z');
    await tick();
    expect(browser.messages().map((message) => (message as Reminder).title)).toEqual(['Kept']);
  });

  it('goes to every subscribed browser, and a push service answering 410 ends that subscription', async () => {
    ctx.clock.set('2026-03-16T06:00:00Z');
    const { api, browser } = await subscribedUser();
    const other = push.browser();
    expect((await api.subscribe(other.subscription)).statusCode).toBe(204);
    push.answer(other.path, 410);
    await api.create({
      title: 'Both',
      dueDate: '2026-03-16',
      dueTime: '08:00',
      remindMinutesBefore: 0,
    });
    ctx.clock.set('2026-03-16T07:00:00Z');
    const round = await tick();
    expect(round.pushes).toEqual({ sent: 1, gone: 1, failed: 0 });
    expect(browser.messages()).toHaveLength(1);
    const left = await database.handle.db
      .selectFrom('push_subscriptions')
      .select('endpoint')
      .where('endpoint', '=', other.subscription.endpoint)
      .execute();
    expect(left).toEqual([]);
  });

  it("keeps a push endpoint with its subscription: another account may take it over only with the browser's keys", async () => {
    ctx.clock.set('2026-03-18T06:00:00Z');
    const { api, browser } = await subscribedUser();
    const mallory = client(await registerUser(ctx.app));
    const stranger = push.browser();
    const takeover = await mallory.subscribe({
      endpoint: browser.subscription.endpoint,
      keys: stranger.subscription.keys,
    });
    expect(takeover.statusCode).toBe(409);
    expect(takeover.json()).toEqual({
      error:
        'endpoint is already registered to another account: turn reminders off and on again in this browser',
    });
    await api.create({
      title: 'Still mine',
      dueDate: '2026-03-18',
      dueTime: '08:00',
      remindMinutesBefore: 0,
    });
    ctx.clock.set('2026-03-18T07:00:00Z');
    expect((await tick()).pushes).toEqual({ sent: 1, gone: 0, failed: 0 });
    expect(browser.messages()).toEqual([expect.objectContaining({ title: 'Still mine' })]);

    // The browser itself, now signed in to another account, moves its reminders there.
    const next = client(await registerUser(ctx.app));
    expect((await next.subscribe(browser.subscription)).statusCode).toBe(204);
    await api.create({
      title: 'Not any more',
      dueDate: '2026-03-18',
      dueTime: '09:00',
      remindMinutesBefore: 0,
    });
    ctx.clock.set('2026-03-18T08:00:00Z');
    expect((await tick()).pushes).toEqual({ sent: 0, gone: 0, failed: 0 });
  });

  it('stops pushing to a browser that turned reminders off', async () => {
    ctx.clock.set('2026-03-17T06:00:00Z');
    const { api, browser } = await subscribedUser();
    expect((await api.unsubscribe(browser.subscription.endpoint)).statusCode).toBe(204);
    await api.create({
      title: 'Off',
      dueDate: '2026-03-17',
      dueTime: '08:00',
      remindMinutesBefore: 0,
    });
    ctx.clock.set('2026-03-17T07:00:00Z');
    expect(await tick()).toMatchObject({ claimed: 1, pushes: { sent: 0 } });
    expect(browser.messages()).toEqual([]);
  });

  it('lists what went out in the last hour for the open app', async () => {
    ctx.clock.set('2026-03-18T06:00:00Z');
    const { user, api } = await subscribedUser();
    const todo = (
      await api.create({
        title: 'Notice me',
        dueDate: '2026-03-18',
        dueTime: '08:00',
        remindMinutesBefore: 10,
      })
    ).json<Todo>();
    ctx.clock.set('2026-03-18T06:50:00Z');
    await tick();
    const fresh = client(await signInAgain(ctx.app, user));
    const recent = await fresh.recent();
    expect(recent.json()).toEqual([
      {
        todoId: todo.id,
        title: 'Notice me',
        dueDate: '2026-03-18',
        dueTime: '08:00',
        firedAt: '2026-03-18T06:50:00.000Z',
      },
    ]);
    expect((await fresh.recent('2026-03-18T06:50:00.000Z')).json()).toEqual([]);
    expect((await fresh.recent('yesterday')).statusCode).toBe(400);
  });
});

describe('a long round', () => {
  it('gives the event loop a turn between its batches, so requests are answered meanwhile', async () => {
    ctx.clock.set('2026-03-20T08:00:00Z');
    const api = client(await registerUser(ctx.app));
    for (let i = 0; i <= 2 * REMINDER_BATCH; i++) {
      const created = await api.create({
        title: `Due ${i}`,
        dueDate: '2026-03-20',
        dueTime: '12:00',
        reminders: [0],
      });
      expect(created.statusCode).toBe(201);
    }
    ctx.clock.set('2026-03-20T11:00:00Z');
    let finished = false;
    const round = tick().then((result) => {
      finished = true;
      return result;
    });
    // What a request arriving meanwhile waits for: a turn of the event loop.
    const duringRound = await new Promise<boolean>((resolve) =>
      setImmediate(() => resolve(!finished)),
    );
    expect(duringRound).toBe(true);
    expect((await round).claimed).toBe(2 * REMINDER_BATCH + 1);
  });
});

describe('across processes', () => {
  it('goes out once when two app instances on one database poll at the same moment', async () => {
    ctx.clock.set('2026-03-19T06:00:00Z');
    const { api, browser } = await subscribedUser();
    for (let i = 0; i < 5; i++) {
      await api.create({
        title: `Once ${i}`,
        dueDate: '2026-03-19',
        dueTime: '08:00',
        remindMinutesBefore: 0,
      });
    }
    const second = await createTestApp({
      database: { ...database, handle: database.reconnect() },
      clock: ctx.clock,
    });
    try {
      ctx.clock.set('2026-03-19T07:00:00Z');
      const rounds = await Promise.all([tick(), second.app.sendDueReminders(), tick()]);
      expect(rounds.reduce((sum, round) => sum + round.claimed, 0)).toBe(5);
      expect(browser.messages()).toHaveLength(5);
    } finally {
      await second.app.close();
      await second.database.handle.db.destroy();
    }
  });

  it('survives a restart: a new instance sends what an earlier one scheduled', async () => {
    ctx.clock.set('2026-03-20T06:00:00Z');
    const { api, browser } = await subscribedUser();
    await api.create({
      title: 'Persisted',
      dueDate: '2026-03-20',
      dueTime: '08:00',
      remindMinutesBefore: 0,
    });
    const restarted = await createTestApp({
      database: { ...database, handle: database.reconnect() },
      clock: ctx.clock,
    });
    try {
      ctx.clock.set('2026-03-20T07:05:00Z');
      expect((await restarted.app.sendDueReminders()).pushes.sent).toBe(1);
      expect(browser.messages()).toMatchObject([{ title: 'Persisted' }]);
    } finally {
      await restarted.app.close();
      await restarted.database.handle.db.destroy();
    }
  });

  it('runs rounds by itself on an interval and stops on close', async () => {
    ctx.clock.set('2026-03-21T06:00:00Z');
    const { api, browser } = await subscribedUser();
    await api.create({
      title: 'Polled',
      dueDate: '2026-03-21',
      dueTime: '07:01',
      remindMinutesBefore: 0,
    });
    ctx.clock.set('2026-03-21T06:01:00Z');
    const polling = await createTestApp({
      database: { ...database, handle: database.reconnect() },
      clock: ctx.clock,
      reminderPollMs: 20,
    });
    try {
      for (let i = 0; i < 100 && browser.messages().length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(browser.messages()).toMatchObject([{ title: 'Polled' }]);
    } finally {
      await polling.app.close();
      await polling.database.handle.db.destroy();
    }
  });
});
