import {
  type DailyStatistic,
  groupsApi,
  statisticsApi,
  type Todo,
  todosApi,
  trashApi,
} from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type UncheckedInput } from '../test/api-client.js';
import {
  createTestApp,
  registerUser,
  signInAgain,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

const zoneHeader = (zone?: string): Record<string, string> => (zone ? { 'x-time-zone': zone } : {});
/** The daily records of `days` days in `zone`. */
const recent = (user: TestUser, days: number, zone?: string) =>
  apiClient(ctx.app, user)(statisticsApi.recent, { query: { days }, headers: zoneHeader(zone) });
const range = (user: TestUser, startDate: string, endDate: string, zone?: string) =>
  apiClient(ctx.app, user)(statisticsApi.range, {
    query: { startDate, endDate },
    headers: zoneHeader(zone),
  });
const since = (user: TestUser, date: string, zone?: string) =>
  apiClient(ctx.app, user)(statisticsApi.since, {
    query: { since: date },
    headers: zoneHeader(zone),
  });
/** Signs in again at the current (test) time, since moving the clock expires tokens. */
const relogin = async (user: TestUser) => {
  user.token = (await signInAgain(ctx.app, user)).token;
};
const createTodo = (user: TestUser, title: string) =>
  apiClient(ctx.app, user)(todosApi.create, { body: { title } });

describe('GET /api/statistics/recent', () => {
  it('returns exactly n zero-filled days, newest first, with the day’s counts', async () => {
    ctx.clock.set('2026-05-18T10:00:00Z');
    const user = await registerUser(ctx.app);
    await createTodo(user, 'two days ago');
    await apiClient(ctx.app, user)(groupsApi.create, { body: { name: 'G', color: '#3B82F6' } });
    ctx.clock.set('2026-05-20T10:00:00Z');
    await relogin(user);
    await createTodo(user, 'today');

    const body = (await recent(user, 7)).expectBody(200);
    expect(body.map((d) => d.date)).toEqual([
      '2026-05-20',
      '2026-05-19',
      '2026-05-18',
      '2026-05-17',
      '2026-05-16',
      '2026-05-15',
      '2026-05-14',
    ]);
    expect(body[0]).toEqual({
      date: '2026-05-20',
      todosCreated: 1,
      todosCompleted: 0,
      groupsCreated: 0,
      logins: 1,
    });
    expect(body[2]).toEqual({
      date: '2026-05-18',
      todosCreated: 1,
      todosCompleted: 0,
      groupsCreated: 1,
      logins: 0,
    });
    expect(body[1]).toEqual({
      date: '2026-05-19',
      todosCreated: 0,
      todosCompleted: 0,
      groupsCreated: 0,
      logins: 0,
    });
    // Without days: the contract's default (its type requires days, so sent unchecked).
    const byDefault = await apiClient(ctx.app, user).unchecked(statisticsApi.recent);
    expect(byDefault.json<DailyStatistic[]>()).toHaveLength(30);
  });

  it('buckets by the caller’s time zone', async () => {
    // 23:30 UTC on 10 March is already 11 March in Berlin and still 10 March in New York.
    ctx.clock.set('2026-03-10T23:30:00Z');
    const user = await registerUser(ctx.app);
    await createTodo(user, 'late');
    const berlin = (await recent(user, 2, 'Europe/Berlin')).expectBody(200);
    expect(berlin.map((d) => [d.date, d.todosCreated])).toEqual([
      ['2026-03-11', 1],
      ['2026-03-10', 0],
    ]);
    const newYork = (await recent(user, 2, 'America/New_York')).expectBody(200);
    expect(newYork.map((d) => [d.date, d.todosCreated])).toEqual([
      ['2026-03-10', 1],
      ['2026-03-09', 0],
    ]);
    const unknown = (await recent(user, 1, 'Not/AZone')).expectBody(200);
    expect(unknown).toEqual([
      { date: '2026-03-10', todosCreated: 1, todosCompleted: 0, groupsCreated: 0, logins: 0 },
    ]);
  });

  it.each(['0', '366', 'abc', '1.5'])('answers 400 for days=%s', async (days) => {
    const user = await registerUser(ctx.app);
    const response = await apiClient(ctx.app, user).unchecked(statisticsApi.recent, {
      query: { days },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toMatch(/^days /);
  });
});

describe('GET /api/statistics/since and /range', () => {
  it('counts from the start of the given day in the zone', async () => {
    ctx.clock.set('2026-06-01T08:00:00Z');
    const user = await registerUser(ctx.app);
    await createTodo(user, 'June');
    ctx.clock.set('2026-06-09T22:30:00Z'); // 10 June in Berlin
    await relogin(user);
    const late = (await createTodo(user, 'late')).json<{ id: number }>();
    await apiClient(ctx.app, user)(todosApi.remove, { params: { id: late.id } });

    const countsSince = async (date: string, zone?: string) =>
      (await since(user, date, zone)).expectBody(200);
    expect(await countsSince('2026-06-01')).toEqual({
      todosCreated: 2,
      todosCompleted: 0,
      groupsCreated: 0,
      logins: 1,
      todosDeleted: 1,
    });
    expect(await countsSince('2026-06-10', 'Europe/Berlin')).toMatchObject({
      todosCreated: 1,
      todosDeleted: 1,
      logins: 1,
    });
    expect(await countsSince('2026-06-10', 'UTC')).toMatchObject({
      todosCreated: 0,
      todosDeleted: 0,
    });
    expect(await countsSince('2030-01-01')).toMatchObject({ todosCreated: 0 });
  });

  it('returns the days of a range inclusive, newest first', async () => {
    const user = await registerUser(ctx.app);
    ctx.clock.set('2026-02-27T12:00:00Z');
    await createTodo(user, 'end of February');
    const body = (await range(user, '2026-02-26', '2026-03-01')).expectBody(200);
    expect(body.map((d) => [d.date, d.todosCreated])).toEqual([
      ['2026-03-01', 0],
      ['2026-02-28', 0],
      ['2026-02-27', 1],
      ['2026-02-26', 0],
    ]);
  });

  it.each(['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'])(
    'answers the last days of year 9999 in %s, and refuses the days before 1970',
    async (zone) => {
      const user = await registerUser(ctx.app);
      const last = (await range(user, '9999-12-30', '9999-12-31', zone)).expectBody(200);
      expect(last.map((d) => d.date)).toEqual(['9999-12-31', '9999-12-30']);
      expect((await since(user, '9999-12-31', zone)).statusCode).toBe(200);
      expect((await range(user, '1969-12-31', '1970-01-01', zone)).statusCode).toBe(400);
      expect((await since(user, '0000-01-01', zone)).statusCode).toBe(400);
    },
  );

  it.each<[keyof typeof statisticsApi, UncheckedInput['query'], string]>([
    ['since', {}, 'since is required'],
    ['since', { since: 'yesterday' }, 'since must be a date in YYYY-MM-DD format'],
    ['since', { since: '2026-02-30' }, 'since must be a real calendar date'],
    [
      'range',
      { startDate: '2026-03-02', endDate: '2026-03-01' },
      'startDate must not be after endDate',
    ],
    ['range', { startDate: '2025-01-01', endDate: '2026-03-01' }, 'at most 366 days'],
    ['range', { startDate: '2026-01-01' }, 'endDate is required'],
  ])('%s with %o → 400 (%s)', async (endpoint, query, message) => {
    const user = await registerUser(ctx.app);
    const response = await apiClient(ctx.app, user).unchecked(statisticsApi[endpoint], { query });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toContain(message);
  });
});

describe('what stayed done', () => {
  it('withdraws the completions an Undo (a reopen) and the deletions a restore take back', async () => {
    const user = await registerUser(ctx.app);
    const call = apiClient(ctx.app, user);
    const todos: Todo[] = [];
    for (let i = 0; i < 13; i++) todos.push((await createTodo(user, `T${i}`)).expectBody(201));
    for (const todo of todos.slice(0, 10)) {
      const done = await call(todosApi.update, {
        params: { id: todo.id },
        body: { title: todo.title, completed: true },
      });
      expect(done.statusCode).toBe(200);
    }
    // Undo of a completion puts the todo back as it was: open.
    for (const todo of todos.slice(0, 3)) {
      const undone = await call(todosApi.update, {
        params: { id: todo.id },
        body: { title: todo.title, completed: false },
      });
      expect(undone.statusCode).toBe(200);
    }
    const ids = todos.slice(10).map((todo) => todo.id);
    expect((await call(todosApi.bulk, { body: { ids, action: 'complete' } })).statusCode).toBe(200);
    const reopened = await call(todosApi.bulk, { body: { ids: [ids[0] ?? 0], action: 'reopen' } });
    expect(reopened.statusCode).toBe(200);
    // Two deleted, one of them restored (the Undo of a delete).
    const [kept, gone] = todos.slice(3, 5) as [Todo, Todo];
    await call(todosApi.remove, { params: { id: kept.id } });
    await call(todosApi.remove, { params: { id: gone.id } });
    expect((await call(trashApi.restore, { params: { id: kept.id } })).statusCode).toBe(200);

    // 13 completions, 4 undone: 9 stayed done; 2 deletions, 1 undone.
    expect((await call(statisticsApi.total)).expectBody(200)).toMatchObject({
      todosCreated: 13,
      todosCompleted: 9,
      todosDeleted: 1,
    });
    const [today] = (await recent(user, 1)).expectBody(200) as DailyStatistic[];
    expect(today).toMatchObject({ todosCreated: 13, todosCompleted: 9 });
    const sinceToday = (await since(user, today?.date ?? '')).expectBody(200);
    expect(sinceToday).toMatchObject({ todosCompleted: 9, todosDeleted: 1 });
    const insights = await call(statisticsApi.insights, { query: { weeks: 1 } });
    const { byHour } = insights.expectBody(200) as { byHour: number[] };
    expect(byHour.reduce((sum, n) => sum + n, 0)).toBe(9);
    // Completing one again counts it again.
    const again = todos[0] as Todo;
    await call(todosApi.update, {
      params: { id: again.id },
      body: { title: again.title, completed: true },
    });
    expect((await call(statisticsApi.total)).expectBody(200)).toMatchObject({ todosCompleted: 10 });
  });
});

describe('GET /api/statistics/total', () => {
  it('counts every kind of event for the caller only', async () => {
    const user = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    await createTodo(other, 'not mine');
    const body = (await apiClient(ctx.app, user)(statisticsApi.total)).expectBody(200);
    expect(body).toEqual({
      todosCreated: 0,
      todosCompleted: 0,
      groupsCreated: 0,
      logins: 0,
      todosDeleted: 0,
      googleAuths: 0,
      registrations: 1,
      tokensGenerated: 1,
      refreshTokensCreated: 1,
      todosUpdated: 0,
      groupsUpdated: 0,
      groupsDeleted: 0,
    });
  });
});
