import { type Repeat, type Todo, todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todosClient } from '../test/todos-client.js';
import {
  createTestApp,
  registerUser,
  signInAgain,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';

/** Due dates, repeats and the Today / Upcoming / Overdue views, through the API. */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

const fresh = (user: TestUser) => signInAgain(ctx.app, user);

/** The todo calls through the contract (test/todos-client.ts). */
const client = (user: TestUser, zone = 'UTC') => todosClient(ctx.app, user, zone);

const titles = (todos: Todo[]) => todos.map((todo) => todo.title);

describe('due dates and times', () => {
  it('are saved, answered and listed; other todos answer null', async () => {
    ctx.clock.set('2026-11-23T10:00:00Z');
    const api = client(await registerUser(ctx.app));
    const created = await api.create({
      title: 'Pay rent',
      dueDate: '2026-12-01',
      dueTime: '09:00',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ dueDate: '2026-12-01', dueTime: '09:00', repeat: null });
    const plain = (await api.create({ title: 'Someday' })).json<Todo>();
    expect(plain).toMatchObject({ dueDate: null, dueTime: null, repeat: null });
    expect((await api.list()).map((t) => [t.title, t.dueDate, t.dueTime])).toEqual([
      ['Someday', null, null],
      ['Pay rent', '2026-12-01', '09:00'],
    ]);
  });

  it.each([
    [{ dueDate: '2026-02-30' }, 'dueDate must be a real calendar date'],
    [{ dueDate: '26-12-01' }, 'dueDate'],
    [{ dueDate: '2026-12-01', dueTime: '24:00' }, 'dueTime'],
    [{ dueDate: '2026-12-01', dueTime: '9:00' }, 'dueTime'],
    [{ dueTime: '09:00' }, 'dueTime needs a dueDate'],
    [{ repeat: { every: 1, unit: 'day', from: 'due' } }, 'repeat needs a dueDate'],
    [{ dueDate: '2026-12-01', repeat: { every: 0, unit: 'day', from: 'due' } }, 'repeat.every'],
    [{ dueDate: '2026-12-01', repeat: { every: 366, unit: 'day', from: 'due' } }, 'repeat.every'],
    [{ dueDate: '2026-12-01', repeat: { every: 1, unit: 'hour', from: 'due' } }, 'repeat.unit'],
    [
      {
        dueDate: '2026-12-01',
        repeat: { every: 1, unit: 'week', weekdays: ['mon', 'mon'], from: 'due' },
      },
      'repeat.weekdays',
    ],
  ])('refuse %j with a 400 naming the field, writing nothing', async (fields, message) => {
    const api = client(await registerUser(ctx.app));
    const response = await api.call.unchecked(todosApi.create, { body: { title: 'x', ...fields } });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toContain(message);
    expect(await api.list()).toEqual([]);
  });

  it('stay when a PUT omits them (an older client), and null clears them', async () => {
    const api = client(await registerUser(ctx.app));
    const { id } = (
      await api.create({
        title: 'Water plants',
        dueDate: '2026-12-01',
        dueTime: '08:00',
        repeat: { every: 3, unit: 'day', from: 'due' },
      })
    ).json<Todo>();
    const spec = await api.put(id, { title: 'Water the plants', completed: false });
    expect(spec.json()).toMatchObject({
      title: 'Water the plants',
      dueDate: '2026-12-01',
      dueTime: '08:00',
      repeat: { every: 3, unit: 'day', from: 'due' },
    });
    const noTime = await api.put(id, {
      title: 'Water the plants',
      completed: false,
      dueTime: null,
    });
    expect(noTime.json()).toMatchObject({ dueDate: '2026-12-01', dueTime: null });
    const none = await api.put(id, {
      title: 'Water the plants',
      completed: false,
      dueDate: null,
    });
    expect(none.json()).toMatchObject({ dueDate: null, dueTime: null, repeat: null });
  });
});

describe('repeating todos', () => {
  it('count the completion, then move to the next occurrence and stay open', async () => {
    ctx.clock.set('2026-11-23T10:00:00Z');
    const user = await registerUser(ctx.app);
    const api = client(user);
    const { id } = (
      await api.create({
        title: 'Rent',
        dueDate: '2027-01-31',
        repeat: { every: 1, unit: 'month', from: 'due' },
      })
    ).json<Todo>();
    const done = await api.put(id, { title: 'Rent', completed: true });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      completed: false,
      dueDate: '2027-02-28',
      repeat: { every: 1, unit: 'month', monthDay: 31, from: 'due' },
    });
    const again = await api.put(id, { title: 'Rent', completed: true });
    expect(again.json()).toMatchObject({ completed: false, dueDate: '2027-03-31' });
    expect(await api.totals()).toMatchObject({ todosCompleted: 2, todosCreated: 1 });
  });

  it('move their start date with the due date, by completion, skip or a bulk completion', async () => {
    ctx.clock.set('2026-11-23T10:00:00Z');
    const api = client(await registerUser(ctx.app));
    const { id } = (
      await api.create({
        title: 'Report',
        dueDate: '2026-11-30',
        startDate: '2026-11-27',
        repeat: { every: 1, unit: 'week', from: 'due' },
      })
    ).json<Todo>();
    const done = await api.put(id, {
      title: 'Report',
      completed: true,
      dueDate: '2026-11-30',
      startDate: '2026-11-27',
      repeat: { every: 1, unit: 'week', from: 'due' },
    });
    expect(done.json()).toMatchObject({ dueDate: '2026-12-07', startDate: '2026-12-04' });
    expect((await api.skip(id)).json()).toMatchObject({
      dueDate: '2026-12-14',
      startDate: '2026-12-11',
    });
    const bulk = await api.bulk({ action: 'complete', ids: [id] });
    expect(bulk.json<Todo[]>().find((todo) => todo.id === id)).toMatchObject({
      dueDate: '2026-12-21',
      startDate: '2026-12-18',
    });
  });

  it('counted from completion start from the day it was done, in the user’s zone', async () => {
    // 23:30 UTC on the 23rd is already the 24th in Kiritimati (UTC+14).
    ctx.clock.set('2026-11-23T23:30:00Z');
    const api = client(await registerUser(ctx.app), 'Pacific/Kiritimati');
    const { id } = (
      await api.create({
        title: 'Haircut',
        dueDate: '2026-11-01',
        repeat: { every: 2, unit: 'week', from: 'completion' },
      })
    ).json<Todo>();
    const done = await api.put(id, { title: 'Haircut', completed: true });
    expect(done.json()).toMatchObject({ completed: false, dueDate: '2026-12-08' });
  });

  it('skip an occurrence without counting a completion', async () => {
    const api = client(await registerUser(ctx.app));
    const { id } = (
      await api.create({
        title: 'Team lunch',
        dueDate: '2026-11-27',
        repeat: { every: 1, unit: 'month', nthWeekday: { n: -1, weekday: 'fri' }, from: 'due' },
      })
    ).json<Todo>();
    const skipped = await api.skip(id);
    expect(skipped.statusCode).toBe(200);
    expect(skipped.json()).toMatchObject({ dueDate: '2026-12-25', completed: false });
    expect((await api.skip(id)).json()).toMatchObject({ dueDate: '2027-01-29' });
    expect(await api.totals()).toMatchObject({ todosCompleted: 0, todosUpdated: 2 });
  });

  it('end a repeat whose next date would be after 9999-12-31: completing completes it', async () => {
    const user = await registerUser(ctx.app);
    const api = client(user);
    const make = async (title: string, dueDate: string, repeat: Repeat) => {
      const created = await api.create({ title, dueDate, repeat });
      expect(created.statusCode, created.body).toBe(201);
      return created.json<Todo>().id;
    };
    const daily = await make('Daily', '9999-12-31', { every: 1, unit: 'day', from: 'due' });
    const lastFriday = { every: 1, unit: 'month', nthWeekday: { n: -1, weekday: 'fri' } } as const;
    const monthly = await make('Monthly', '9999-12-31', { ...lastFriday, from: 'due' });
    const bulkOne = await make('Bulk', '9999-12-30', { every: 2, unit: 'day', from: 'due' });

    const skipped = await api.skip(daily);
    expect(skipped.statusCode, skipped.body).toBe(400);
    expect(skipped.json()).toEqual({
      error: 'This todo repeats no more: its next date would be after 9999-12-31',
    });

    for (const [id, title] of [
      [daily, 'Daily'],
      [monthly, 'Monthly'],
    ] as const) {
      const done = await api.put(id, { title, completed: true });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({ completed: true, dueDate: '9999-12-31' });
    }
    const bulk = await api.bulk({ ids: [bulkOne], action: 'complete' });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const todos = await api.list();
    expect(todos.find((todo) => todo.id === bulkOne)).toMatchObject({
      completed: true,
      dueDate: '9999-12-30',
    });
    expect(todos.every((todo) => /^\d{4}-\d{2}-\d{2}$/.test(todo.dueDate ?? ''))).toBe(true);
    expect(await api.totals()).toMatchObject({ todosCompleted: 3 });
  });

  it('refuse to skip a todo that does not repeat (400) or is not yours (404)', async () => {
    const owner = client(await registerUser(ctx.app));
    const stranger = client(await registerUser(ctx.app));
    const { id } = (await owner.create({ title: 'Once', dueDate: '2026-12-01' })).json<Todo>();
    const once = await owner.skip(id);
    expect(once.statusCode).toBe(400);
    expect(once.json<{ error: string }>().error).toBe('Only a repeating todo can be skipped');
    const repeating = (
      await owner.create({
        title: 'Daily',
        dueDate: '2026-12-01',
        repeat: { every: 1, unit: 'day', from: 'due' },
      })
    ).json<Todo>();
    expect((await stranger.skip(repeating.id)).statusCode).toBe(404);
    expect((await owner.list()).find((t) => t.id === repeating.id)?.dueDate).toBe('2026-12-01');
  });
});

describe('Today, Upcoming and Overdue', () => {
  async function plannedUser(zone: string) {
    const user = await registerUser(ctx.app);
    const api = client(user, zone);
    for (const [title, dueDate, dueTime] of [
      ['last week', '2026-11-16', null],
      ['yesterday', '2026-11-22', '18:00'],
      ['today early', '2026-11-23', '08:00'],
      ['today', '2026-11-23', null],
      ['tomorrow', '2026-11-24', null],
      ['in six days', '2026-11-29', null],
      ['in a week', '2026-11-30', null],
      ['no date', null, null],
    ] as const) {
      await api.create({ title, dueDate, ...(dueTime ? { dueTime } : {}) });
    }
    const done = (await api.create({ title: 'done today', dueDate: '2026-11-23' })).json<Todo>();
    await api.put(done.id, { title: 'done today', completed: true });
    return user;
  }

  it.each([
    // [zone, an instant that is 2026-11-23 after 08:00 there]
    ['UTC', '2026-11-23T12:00:00Z'],
    ['America/New_York', '2026-11-23T17:00:00Z'],
    ['Europe/Berlin', '2026-11-23T12:00:00Z'],
    ['Pacific/Kiritimati', '2026-11-22T20:00:00Z'],
  ])('follow the calendar day in %s', async (zone, instant) => {
    ctx.clock.set(instant);
    const api = client(await fresh(await plannedUser(zone)), zone);
    expect(titles(await api.list({ view: 'today' }))).toEqual([
      'last week',
      'yesterday',
      'today',
      'today early',
    ]);
    expect(titles(await api.list({ view: 'upcoming' }))).toEqual([
      'today',
      'today early',
      'tomorrow',
      'in six days',
    ]);
    expect(titles(await api.list({ view: 'overdue' }))).toEqual([
      'last week',
      'yesterday',
      'today early',
    ]);
    // Without a view, the original list: everything, newest first.
    expect(await api.list()).toHaveLength(9);
  });

  it('move with the user: the same todo is due today in Kiritimati and tomorrow in New York', async () => {
    ctx.clock.set('2026-11-23T20:00:00Z'); // Kiritimati: the 24th at 10:00; New York: the 23rd
    const user = await registerUser(ctx.app);
    await client(user).create({ title: 'call the bank', dueDate: '2026-11-24' });
    expect(titles(await client(user, 'Pacific/Kiritimati').list({ view: 'today' }))).toEqual([
      'call the bank',
    ]);
    expect(titles(await client(user, 'America/New_York').list({ view: 'today' }))).toEqual([]);
    expect(titles(await client(user, 'America/New_York').list({ view: 'upcoming' }))).toEqual([
      'call the bank',
    ]);
  });

  it.each([
    // Berlin springs forward on 2026-03-29 (02:00 → 03:00) and falls back on 2026-10-25.
    ['2026-03-28T23:30:00Z', '2026-03-29', '00:15', true],
    ['2026-03-29T00:59:00Z', '2026-03-29', '03:30', false],
    ['2026-03-29T01:31:00Z', '2026-03-29', '03:30', true],
    ['2026-10-24T22:30:00Z', '2026-10-25', '00:15', true],
    ['2026-10-25T01:15:00Z', '2026-10-25', '02:30', false],
    ['2026-10-25T01:45:00Z', '2026-10-25', '02:30', true],
  ])('in Berlin at %s, due %s %s is overdue: %s', async (instant, dueDate, dueTime, overdue) => {
    ctx.clock.set('2026-03-01T00:00:00Z');
    const user = await registerUser(ctx.app);
    await client(user, 'Europe/Berlin').create({ title: 'timed', dueDate, dueTime });
    ctx.clock.set(instant);
    const api = client(await fresh(user), 'Europe/Berlin');
    expect(titles(await api.list({ view: 'overdue' }))).toEqual(overdue ? ['timed'] : []);
    expect(titles(await api.list({ view: 'today' }))).toEqual(['timed']);
  });

  it('pages a view with limit and cursor', async () => {
    ctx.clock.set('2026-11-23T12:00:00Z');
    const { call } = client(await fresh(await plannedUser('UTC')));
    const first = await call(todosApi.list, { query: { view: 'upcoming', limit: 3 } });
    expect(titles(first.data())).toEqual(['today', 'today early', 'tomorrow']);
    const cursor = first.headers['x-next-cursor'] as string;
    expect(cursor).toBeTruthy();
    const second = await call(todosApi.list, { query: { view: 'upcoming', limit: 3, cursor } });
    expect(second.statusCode).toBe(200);
    expect(titles(second.data())).toEqual(['in six days']);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    const bad = await call(todosApi.list, {
      query: { view: 'today', cursor: 'bm90LWEtY3Vyc29y' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
