import { type ImportReport, type Todo, todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext, type TestUser } from '../test/helpers.js';
import { fixture, imported } from '../test/import-helpers.js';

/**
 * iCalendar files written by Thunderbird, Apple Reminders (iOS), Nextcloud Tasks, eM Client and
 * Synology Calendar, as Tasks.org
 * keeps them among its test data (./fixtures/SOURCES.md names each), imported through
 * POST /api/import into a fresh account in Europe/Berlin; on SQLite, or PostgreSQL when
 * TEST_DATABASE_URL is set. Each file holds one task: every field a user sees is checked.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** What a todo's row shows, with nothing set: each test names what its file sets. */
const blank = {
  description: null,
  groupId: null,
  completed: false,
  dueDate: null,
  dueTime: null,
  startDate: null,
  repeat: null,
  remindMinutesBefore: null,
  tags: [],
  priority: 0,
  parentId: null,
};

/**
 * Imports the genuine file twice into a new account: the second import adds nothing. Answers the
 * first import's report and the one todo the account then has.
 */
async function importGenuine(
  name: string,
): Promise<{ report: ImportReport; todo: Todo; user: TestUser }> {
  const user = await registerUser(ctx.app);
  const bytes = fixture(`tasks-org/${name}`);
  const report = await imported(ctx.app, user, bytes, 'ics');
  const again = await imported(ctx.app, user, bytes, 'ics');
  expect(again.todos).toMatchObject({ created: 0, alreadyImported: 1 });
  expect(again.importId).toBeNull();
  const todos = (await apiClient(ctx.app, user)(todosApi.list)).json<Todo[]>();
  expect(todos).toHaveLength(1);
  const [todo] = todos;
  if (!todo) throw new Error('no todo imported');
  return { report, todo, user };
}

describe('iCalendar files Thunderbird wrote (genuine)', () => {
  it('a completed task: done, with its creation time', async () => {
    const { report, todo } = await importGenuine('thunderbird-basic-completed.ics');
    expect(report.todos).toMatchObject({ created: 1, completed: 1 });
    expect(report.warnings).toEqual([]);
    expect(report.skipped).toEqual([]);
    expect(report.groups).toEqual([]);
    expect(todo).toMatchObject({
      ...blank,
      title: 'Test',
      completed: true,
      created: '2018-04-17T21:24:22.000Z',
    });
  });

  it('a task due at a time in its zone: that day and clock time, as the CalDAV codec reads it', async () => {
    const { report, todo } = await importGenuine('thunderbird-basic-due-date.ics');
    expect(report.todos).toMatchObject({ created: 1, withDueDate: 1 });
    expect(report.warnings).toEqual([]);
    expect(todo).toMatchObject({
      ...blank,
      title: 'New Task',
      dueDate: '2018-04-17',
      dueTime: '14:00',
      created: '2018-04-17T18:11:09.000Z',
    });
  });

  it('a task due at a time with an alarm 15 minutes before: due then, the reminder named as not imported', async () => {
    const { report, todo } = await importGenuine('thunderbird-reminder-before-end.ics');
    expect(todo).toMatchObject({
      ...blank,
      title: 'Test',
      dueDate: '2022-01-21',
      dueTime: '13:00',
      created: '2022-01-21T05:49:34.000Z',
    });
    expect(report.warnings.map((row) => [row.line, row.message])).toEqual([
      [21, 'Its reminder (15 minutes before the due time) is not imported'],
    ]);
  });

  it('a task with an alarm at a set time but no due date: imported without a reminder', async () => {
    const { report, todo } = await importGenuine('thunderbird-date-time-reminder.ics');
    expect(report.warnings).toEqual([]);
    expect(todo).toMatchObject({ ...blank, title: 'Test', created: '2022-01-21T05:36:59.000Z' });
  });

  it('a daily task with a start in its zone and no due date: its start day, the repeat left out with the true reason', async () => {
    const { report, todo } = await importGenuine('thunderbird-repeat-daily.ics');
    // 17:00 in Chicago is already the next day in Berlin; the start stays the day it was set on.
    expect(todo).toMatchObject({
      ...blank,
      title: 'New Task',
      startDate: '2018-04-17',
      created: '2018-04-17T21:27:58.000Z',
    });
    expect(report.todos).toMatchObject({ created: 1, repeating: 0, withDueDate: 0 });
    expect(report.warnings.map((row) => [row.line, row.message])).toEqual([
      [21, 'Its repeat (FREQ=DAILY) needs a due date, which it has not: imported without it'],
    ]);
  });

  it('a weekday repeat until a date, without a due date: its start day, the repeat left out', async () => {
    const { report, todo } = await importGenuine('thunderbird-repeat-until-date-time.ics');
    expect(todo).toMatchObject({
      ...blank,
      title: 'Repeat until',
      startDate: '2020-07-17',
      created: '2020-07-17T15:52:59.000Z',
    });
    expect(report.warnings.map((row) => [row.line, row.message])).toEqual([
      [
        21,
        'Its repeat (FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20200731T160000Z) needs a due date, which it has not: imported without it',
      ],
    ]);
  });
});

describe('iCalendar files Apple Reminders (iOS 11) wrote (genuine)', () => {
  it('a high-priority task: high priority', async () => {
    const { report, todo } = await importGenuine('apple-priority-high.ics');
    expect(report.warnings).toEqual([]);
    expect(todo).toMatchObject({
      ...blank,
      title: 'Test',
      priority: 3,
      created: '2018-04-17T15:43:47.000Z',
    });
  });

  it('a daily task due at a time: its due day and time, start and daily repeat', async () => {
    // Its VTIMEZONE comes after the VTODO, as iOS writes it.
    const { report, todo } = await importGenuine('apple-repeat-daily.ics');
    expect(report.todos).toMatchObject({ created: 1, withDueDate: 1, repeating: 1 });
    expect(report.warnings).toEqual([]);
    expect(todo).toMatchObject({
      ...blank,
      title: 'Test daily',
      dueDate: '2018-04-17',
      dueTime: '14:00',
      startDate: '2018-04-17',
      repeat: { every: 1, unit: 'day', from: 'due' },
      // Its alarm is at a set instant, not a time before the due: Tally's reminder has no form for it.
      remindMinutesBefore: null,
      created: '2018-04-17T18:51:49.000Z',
    });
  });

  it('a completed task: done', async () => {
    const { report, todo } = await importGenuine('apple-basic-completed.ics');
    expect(report.todos).toMatchObject({ created: 1, completed: 1 });
    expect(todo).toMatchObject({
      ...blank,
      title: 'Test',
      completed: true,
      created: '2018-04-17T18:43:00.000Z',
    });
  });
});

describe('iCalendar files Nextcloud Tasks wrote (genuine)', () => {
  it('an all-day task: its due day, no time', async () => {
    const { report, todo } = await importGenuine('nextcloud-all-day-task.ics');
    expect(report.todos).toMatchObject({ created: 1, withDueDate: 1 });
    expect(report.warnings).toEqual([]);
    expect(todo).toMatchObject({
      ...blank,
      title: 'All day task',
      dueDate: '2021-02-01',
      // Nextcloud Tasks writes its times without a zone: the clock of the caller (Berlin, CET).
      created: '2021-01-27T18:51:22.000Z',
    });
  });

  it('a task due at a time without a zone: that clock time, its description', async () => {
    const { report, todo } = await importGenuine('nextcloud-basic-due-date.ics');
    expect(report.todos).toMatchObject({ created: 1, withDueDate: 1 });
    expect(report.warnings).toEqual([]);
    expect(todo).toMatchObject({
      ...blank,
      title: 'Test title',
      description: 'Test description',
      dueDate: '2018-04-17',
      dueTime: '17:00',
      created: '2018-04-17T14:32:03.000Z',
    });
  });

  it('a task with two stars and a description: low priority, the description', async () => {
    const { report, todo } = await importGenuine('nextcloud-priority-2-stars.ics');
    expect(report.warnings).toEqual([]);
    expect(todo).toMatchObject({
      ...blank,
      title: 'Test',
      description: 'Test description',
      priority: 1,
      // A time without a zone in Berlin's summer (CEST).
      created: '2018-04-17T14:32:03.000Z',
    });
  });
});

describe('iCalendar files eM Client wrote (genuine)', () => {
  it('a daily task whose first occurrence was done: due on the next, the done one a completion', async () => {
    const { report, todo, user } = await importGenuine('emclient-completed-recurring-task.ics');
    expect(report.warnings).toEqual([]);
    expect(report.todos).toMatchObject({ created: 1, repeating: 1, withDueDate: 1 });
    // eM Client marks the occurrence of 10 September done in an override of the open task.
    expect(todo).toMatchObject({
      ...blank,
      title: 'Repeat',
      dueDate: '2020-09-11',
      dueTime: '00:00',
      startDate: '2020-09-11',
      repeat: { every: 1, unit: 'day', from: 'due' },
      created: '2020-09-09T14:24:19.000Z',
    });
    const completions = await ctx.database.handle.db
      .selectFrom('todo_completions')
      .select(['completed_at', 'due_date', 'on_time'])
      .where('user_id', '=', user.id)
      .execute();
    expect(completions.map((c) => [Number(c.completed_at), c.due_date, c.on_time])).toEqual([
      [Date.parse('2020-09-09T14:25:04Z'), '2020-09-10', 1],
    ]);
  });
});

describe('iCalendar files Synology Calendar wrote (genuine)', () => {
  it('a completed task with empty fields and misspelt properties: done, no description', async () => {
    // Synology writes LAST-MOD and PERCENT_COMPLETE, which iCalendar does not name, and an empty
    // DESCRIPTION; its times have no zone.
    const { report, todo } = await importGenuine('synology-complete-no-due-date.ics');
    expect(report.todos).toMatchObject({ created: 1, completed: 1 });
    expect(report.warnings).toEqual([]);
    expect(todo).toMatchObject({
      ...blank,
      title: 'No date',
      completed: true,
      created: '2019-01-11T07:54:45.000Z',
    });
  });
});
