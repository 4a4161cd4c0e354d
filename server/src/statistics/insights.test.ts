import {
  groupsApi,
  type Insights,
  statisticsApi,
  tagsApi,
  type Todo,
  todosApi,
} from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  registerUser,
  signInAgain,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';

/** GET /api/statistics/insights, driven by the server's clock (time travel). */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

const fresh = (user: TestUser) => signInAgain(ctx.app, user);

/** Creates and completes a todo at the given instant (the clock is moved there). */
async function completeAt(
  user: TestUser,
  createdIso: string,
  completedIso: string,
  fields: object = {},
  zone = 'UTC',
): Promise<Todo> {
  ctx.clock.set(createdIso);
  const call = apiClient(ctx.app, await fresh(user));
  const headers = { 'x-time-zone': zone };
  const todo = (
    await call(todosApi.create, { body: { title: 'x', ...fields }, headers })
  ).json<Todo>();
  ctx.clock.set(completedIso);
  const done = await apiClient(ctx.app, await fresh(user))(todosApi.update, {
    params: { id: todo.id },
    body: { title: 'x', completed: true, groupId: todo.groupId },
    headers,
  });
  expect(done.statusCode).toBe(200);
  return todo;
}

async function insights(user: TestUser, atIso: string, zone = 'UTC', weeks = 52) {
  ctx.clock.set(atIso);
  const response = await apiClient(ctx.app, await fresh(user))(statisticsApi.insights, {
    query: { weeks: weeks },
    headers: { 'x-time-zone': zone },
  });
  expect(response.statusCode).toBe(200);
  return response.json<Insights>();
}

describe('GET /api/statistics/insights', () => {
  it('is empty but complete for a new user', async () => {
    const user = await registerUser(ctx.app);
    const result = await insights(user, '2026-11-25T12:00:00Z', 'UTC', 2);
    // Wednesday 25 November: this week from Monday 23rd, and the week before.
    expect(result.from).toBe('2026-11-16');
    expect(result.to).toBe('2026-11-25');
    expect(result.heatmap).toHaveLength(10);
    expect(result.heatmap.every((day) => day.completed === 0)).toBe(true);
    expect(result).toMatchObject({
      streak: { current: 0, longest: 0, lastDay: null },
      byWeekday: [0, 0, 0, 0, 0, 0, 0],
      leadTime: { medianHours: null, p75Hours: null, sample: 0 },
      onTime: { onTime: 0, late: 0, rate: null },
      byGroup: [],
      byTag: [],
      week: { thisWeek: 0, lastWeek: 0 },
    });
    expect(result.byHour).toHaveLength(24);
  });

  it('counts streaks, weekdays, hours, lead time and weeks', async () => {
    const user = await registerUser(ctx.app);
    // Done on Fri 20, Sat 21, Sun 22 (last week), then Mon 23 and Tue 24 (this week); not Wed.
    const days = ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24'];
    for (const [i, day] of days.entries()) {
      await completeAt(user, `${day}T08:00:00Z`, `${day}T${String(9 + i).padStart(2, '0')}:30:00Z`);
    }
    // And once two weeks earlier, to make the longest run the recent one.
    await completeAt(user, '2026-11-05T08:00:00Z', '2026-11-05T20:00:00Z');
    const result = await insights(user, '2026-11-25T18:00:00Z');
    // Wednesday has none yet: the streak still runs to yesterday.
    expect(result.streak).toEqual({ current: 5, longest: 5, lastDay: '2026-11-24' });
    // Mon 23, Tue 24, Thu 5, Fri 20, Sat 21, Sun 22; no Wednesday.
    expect(result.byWeekday).toEqual([1, 1, 0, 1, 1, 1, 1]);
    expect(result.byHour.slice(9, 14)).toEqual([1, 1, 1, 1, 1]);
    expect(result.byHour[20]).toBe(1);
    expect(result.week).toEqual({ thisWeek: 2, lastWeek: 3 });
    // Lead times 1.5, 2.5, 3.5, 4.5, 5.5 and 12 hours (nearest rank, lower).
    expect(result.leadTime).toEqual({ medianHours: 3.5, p75Hours: 4.5, sample: 6 });
    expect(result.heatmap.find((d) => d.date === '2026-11-22')?.completed).toBe(1);
    // A day without a completion ends the streak.
    const later = await insights(user, '2026-11-26T12:00:00Z');
    expect(later.streak).toMatchObject({ current: 0, longest: 5 });
  });

  it('keeps a streak across a daylight-saving change, in the user’s days and hours', async () => {
    const user = await registerUser(ctx.app);
    // Berlin falls back on Sunday 2026-10-25. 23:30 local each evening, in UTC:
    const evenings = [
      '2026-10-23T21:30:00Z', // Fri 23:30 CEST
      '2026-10-24T21:30:00Z', // Sat 23:30 CEST
      '2026-10-25T22:30:00Z', // Sun 23:30 CET
      '2026-10-26T22:30:00Z', // Mon 23:30 CET
    ];
    for (const at of evenings) await completeAt(user, at, at, {}, 'Europe/Berlin');
    const result = await insights(user, '2026-10-27T10:00:00Z', 'Europe/Berlin', 2);
    expect(result.streak).toEqual({ current: 4, longest: 4, lastDay: '2026-10-26' });
    expect(result.byHour[23]).toBe(4);
    // In UTC the same evenings are other days and hours.
    const utc = await insights(user, '2026-10-27T10:00:00Z', 'UTC', 2);
    expect(utc.byHour[21]).toBe(2);
    expect(utc.byHour[22]).toBe(2);
  });

  it('follows a user who moves: the same completions fall on their new calendar', async () => {
    const user = await registerUser(ctx.app);
    // 23:00 UTC on Monday is Tuesday morning in Kiritimati (UTC+14).
    await completeAt(user, '2026-11-23T22:00:00Z', '2026-11-23T23:00:00Z');
    const atHome = await insights(user, '2026-11-24T12:00:00Z', 'UTC', 1);
    const moved = await insights(user, '2026-11-24T12:00:00Z', 'Pacific/Kiritimati', 1);
    expect(atHome.byWeekday).toEqual([1, 0, 0, 0, 0, 0, 0]);
    expect(moved.byWeekday).toEqual([0, 1, 0, 0, 0, 0, 0]);
    expect(moved.byHour[13]).toBe(1);
    // A zone half an hour off UTC is bucketed exactly too.
    const kolkata = await insights(user, '2026-11-24T12:00:00Z', 'Asia/Kolkata', 1);
    expect(kolkata.byWeekday).toEqual([0, 1, 0, 0, 0, 0, 0]);
    expect(kolkata.byHour[4]).toBe(1);
  });

  it('keeps completions of todos deleted since, and counts on-time and groups', async () => {
    const user = await registerUser(ctx.app);
    ctx.clock.set('2026-11-01T00:00:00Z');
    const home = (
      await apiClient(ctx.app, await fresh(user))(groupsApi.create, {
        body: { name: 'Home', color: '#10B981' },
      })
    ).json<{ id: number }>();
    await completeAt(user, '2026-11-10T08:00:00Z', '2026-11-10T09:00:00Z', {
      dueDate: '2026-11-10',
      groupId: home.id,
    });
    await completeAt(user, '2026-11-10T08:00:00Z', '2026-11-12T09:00:00Z', {
      dueDate: '2026-11-11',
      groupId: home.id,
    });
    const gone = await completeAt(user, '2026-11-10T08:00:00Z', '2026-11-13T09:00:00Z', {
      dueDate: '2026-11-13',
      dueTime: '08:00',
    });
    ctx.clock.set('2026-11-14T00:00:00Z');
    await apiClient(ctx.app, await fresh(user))(todosApi.remove, { params: { id: gone.id } });
    const result = await insights(user, '2026-11-14T12:00:00Z', 'UTC', 4);
    expect(result.onTime).toEqual({ onTime: 1, late: 2, rate: 1 / 3 });
    expect(result.byGroup).toEqual([
      { groupId: home.id, name: 'Home', color: '#10B981', completed: 2 },
      { groupId: null, name: 'No Group', color: null, completed: 1 },
    ]);
    expect(result.heatmap.filter((d) => d.completed > 0).map((d) => d.date)).toEqual([
      '2026-11-10',
      '2026-11-12',
      '2026-11-13',
    ]);
  });

  it('counts completions by the tags of the completed todo, most first', async () => {
    const user = await registerUser(ctx.app);
    await completeAt(user, '2026-11-16T08:00:00Z', '2026-11-16T09:00:00Z', {
      tags: ['home', 'Errand'],
    });
    await completeAt(user, '2026-11-17T08:00:00Z', '2026-11-17T09:00:00Z', { tags: ['home'] });
    await completeAt(user, '2026-11-18T08:00:00Z', '2026-11-18T09:00:00Z');
    // Before the range: not counted.
    await completeAt(user, '2026-10-01T08:00:00Z', '2026-10-01T09:00:00Z', { tags: ['old'] });
    await apiClient(ctx.app, await fresh(user))(tagsApi.update, {
      params: { name: 'home' },
      body: { color: '#F59E0B' },
    });
    const result = await insights(user, '2026-11-18T12:00:00Z', 'UTC', 2);
    expect(result.byTag).toEqual([
      { name: 'home', color: '#F59E0B', completed: 2 },
      { name: 'Errand', color: null, completed: 1 },
    ]);
    // Another user's tags of the same name never count.
    const other = await registerUser(ctx.app);
    await completeAt(other, '2026-11-18T08:00:00Z', '2026-11-18T10:00:00Z', { tags: ['home'] });
    expect((await insights(user, '2026-11-18T12:00:00Z', 'UTC', 2)).byTag[0]?.completed).toBe(2);
  });

  it('counts every completion of a repeating todo', async () => {
    const user = await registerUser(ctx.app);
    const todo = await completeAt(user, '2026-11-16T08:00:00Z', '2026-11-16T09:00:00Z', {
      dueDate: '2026-11-16',
      repeat: { every: 1, unit: 'day', from: 'due' },
    });
    ctx.clock.set('2026-11-17T09:00:00Z');
    await apiClient(ctx.app, await fresh(user))(todosApi.update, {
      params: { id: todo.id },
      body: { title: 'x', completed: true },
    });
    const result = await insights(user, '2026-11-17T12:00:00Z', 'UTC', 1);
    expect(result.streak.current).toBe(2);
    expect(result.onTime).toMatchObject({ onTime: 2, late: 0 });
  });

  it.each(['0', '105', 'x'])('refuses weeks=%s with a 400 naming it', async (weeks) => {
    const user = await registerUser(ctx.app);
    const response = await apiClient(ctx.app, user).unchecked(statisticsApi.insights, {
      query: { weeks: weeks },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toContain('weeks');
  });

  it('answers the longest range, 104 weeks, in a zone far from UTC', async () => {
    const user = await registerUser(ctx.app);
    const result = await insights(user, '2026-11-24T12:00:00Z', 'Pacific/Kiritimati', 104);
    // It is already Wednesday the 25th there: 103 whole weeks and this week's three days.
    expect(result.heatmap).toHaveLength(103 * 7 + 3);
  });
});
