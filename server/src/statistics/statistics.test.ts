import { type DailyStatistic, groupsApi, todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  as,
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

const get = async <T>(user: TestUser, url: string, zone?: string) => {
  const response = await as(
    ctx.app,
    user,
  )({
    method: 'GET',
    url,
    ...(zone ? { headers: { 'x-time-zone': zone } } : {}),
  });
  return { status: response.statusCode, body: response.json<T>() };
};
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

    const { status, body } = await get<DailyStatistic[]>(user, '/api/statistics/recent?days=7');
    expect(status).toBe(200);
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
    expect((await get<DailyStatistic[]>(user, '/api/statistics/recent')).body).toHaveLength(30);
  });

  it('buckets by the caller’s time zone', async () => {
    // 23:30 UTC on 10 March is already 11 March in Berlin and still 10 March in New York.
    ctx.clock.set('2026-03-10T23:30:00Z');
    const user = await registerUser(ctx.app);
    await createTodo(user, 'late');
    const berlin = (
      await get<DailyStatistic[]>(user, '/api/statistics/recent?days=2', 'Europe/Berlin')
    ).body;
    expect(berlin.map((d) => [d.date, d.todosCreated])).toEqual([
      ['2026-03-11', 1],
      ['2026-03-10', 0],
    ]);
    const newYork = (
      await get<DailyStatistic[]>(user, '/api/statistics/recent?days=2', 'America/New_York')
    ).body;
    expect(newYork.map((d) => [d.date, d.todosCreated])).toEqual([
      ['2026-03-10', 1],
      ['2026-03-09', 0],
    ]);
    const unknown = (
      await get<DailyStatistic[]>(user, '/api/statistics/recent?days=1', 'Not/AZone')
    ).body;
    expect(unknown).toEqual([
      { date: '2026-03-10', todosCreated: 1, todosCompleted: 0, groupsCreated: 0, logins: 0 },
    ]);
  });

  it.each(['0', '366', 'abc', '1.5'])('answers 400 for days=%s', async (days) => {
    const user = await registerUser(ctx.app);
    const { status, body } = await get<{ error: string }>(
      user,
      `/api/statistics/recent?days=${days}`,
    );
    expect(status).toBe(400);
    expect(body.error).toMatch(/^days /);
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

    const since = async (date: string, zone?: string) =>
      (await get<Record<string, number>>(user, `/api/statistics/since?since=${date}`, zone)).body;
    expect(await since('2026-06-01')).toEqual({
      todosCreated: 2,
      todosCompleted: 0,
      groupsCreated: 0,
      logins: 1,
      todosDeleted: 1,
    });
    expect(await since('2026-06-10', 'Europe/Berlin')).toMatchObject({
      todosCreated: 1,
      todosDeleted: 1,
      logins: 1,
    });
    expect(await since('2026-06-10', 'UTC')).toMatchObject({ todosCreated: 0, todosDeleted: 0 });
    expect(await since('2030-01-01')).toMatchObject({ todosCreated: 0 });
  });

  it('returns the days of a range inclusive, newest first', async () => {
    const user = await registerUser(ctx.app);
    ctx.clock.set('2026-02-27T12:00:00Z');
    await createTodo(user, 'end of February');
    const { status, body } = await get<DailyStatistic[]>(
      user,
      '/api/statistics/range?startDate=2026-02-26&endDate=2026-03-01',
    );
    expect(status).toBe(200);
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
      const range = await get<DailyStatistic[]>(
        user,
        '/api/statistics/range?startDate=9999-12-30&endDate=9999-12-31',
        zone,
      );
      expect(range.status).toBe(200);
      expect(range.body.map((d) => d.date)).toEqual(['9999-12-31', '9999-12-30']);
      expect((await get(user, '/api/statistics/since?since=9999-12-31', zone)).status).toBe(200);
      for (const url of [
        '/api/statistics/range?startDate=1969-12-31&endDate=1970-01-01',
        '/api/statistics/since?since=0000-01-01',
      ]) {
        expect((await get(user, url, zone)).status, url).toBe(400);
      }
    },
  );

  it.each([
    ['/api/statistics/since', 'since is required'],
    ['/api/statistics/since?since=yesterday', 'since must be a date in YYYY-MM-DD format'],
    ['/api/statistics/since?since=2026-02-30', 'since must be a real calendar date'],
    [
      '/api/statistics/range?startDate=2026-03-02&endDate=2026-03-01',
      'startDate must not be after endDate',
    ],
    ['/api/statistics/range?startDate=2025-01-01&endDate=2026-03-01', 'at most 366 days'],
    ['/api/statistics/range?startDate=2026-01-01', 'endDate is required'],
  ])('%s → 400 (%s)', async (url, message) => {
    const user = await registerUser(ctx.app);
    const { status, body } = await get<{ error: string }>(user, url);
    expect(status).toBe(400);
    expect(body.error).toContain(message);
  });
});

describe('GET /api/statistics/total', () => {
  it('counts every kind of event for the caller only', async () => {
    const user = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    await createTodo(other, 'not mine');
    const { body } = await get<Record<string, number>>(user, '/api/statistics/total');
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
