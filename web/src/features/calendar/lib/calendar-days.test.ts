import type { Repeat, Todo } from '@tally/contract';
import { nextOccurrence } from '@tally/contract/repeats';
import { defaultTodo } from '@tally/contract/todo-shape';
import { describe, expect, it } from 'vitest';
import {
  addMonths,
  entriesByDay,
  firstDayOfWeek,
  indexByDay,
  monthWeeks,
  shiftedRepeat,
  startOfWeek,
  wallClock,
} from './calendar-days';

const todo = (fields: Partial<Todo>): Todo =>
  defaultTodo({ id: 1, title: 'x', created: '2026-01-01T00:00:00.000Z', position: 0, ...fields });

describe('the first day of the week', () => {
  it("is the account's choice, else the locale's", () => {
    expect(firstDayOfWeek(0, 'de-DE')).toBe(0);
    expect(firstDayOfWeek(null, 'de-DE')).toBe(1);
    expect(firstDayOfWeek(null, 'en-US')).toBe(0);
  });

  it('starts the week and the month grid on it', () => {
    expect(startOfWeek('2026-11-29', 1)).toBe('2026-11-23');
    expect(startOfWeek('2026-11-29', 0)).toBe('2026-11-29');
    expect(startOfWeek('2026-11-29', 6)).toBe('2026-11-28');
    const weeks = monthWeeks('2026-11', 1);
    expect(weeks[0]?.[0]).toBe('2026-10-26');
    expect(weeks.at(-1)?.at(-1)).toBe('2026-12-06');
    expect(monthWeeks('2026-02', 0)).toHaveLength(4);
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
  });
});

describe("now on the zone's wall clock, across daylight-saving changes", () => {
  it.each([
    // Europe/Berlin springs forward on 29 March 2026 at 02:00 and falls back on 25 October.
    ['Europe/Berlin', '2026-03-29T00:59:00Z', '2026-03-29', '01:59'],
    ['Europe/Berlin', '2026-03-29T01:00:00Z', '2026-03-29', '03:00'],
    ['Europe/Berlin', '2026-10-25T00:30:00Z', '2026-10-25', '02:30'],
    ['Europe/Berlin', '2026-10-25T01:30:00Z', '2026-10-25', '02:30'],
    ['Europe/Berlin', '2026-10-25T02:00:00Z', '2026-10-25', '03:00'],
    // America/New_York: 8 March 2026 and 1 November 2026.
    ['America/New_York', '2026-03-08T06:59:00Z', '2026-03-08', '01:59'],
    ['America/New_York', '2026-03-08T07:00:00Z', '2026-03-08', '03:00'],
    ['America/New_York', '2026-11-01T05:30:00Z', '2026-11-01', '01:30'],
    ['America/New_York', '2026-11-01T06:30:00Z', '2026-11-01', '01:30'],
    ['America/New_York', '2026-11-02T04:59:00Z', '2026-11-01', '23:59'],
  ])('%s at %s is %s %s', (zone, instant, date, time) => {
    const wall = wallClock(new Date(instant), zone);
    const [h, m] = time.split(':').map(Number) as [number, number];
    expect(wall).toEqual({ date, minutes: h * 60 + m });
  });

  it('keeps a week of seven days through the change', () => {
    expect(monthWeeks('2026-03', 1).find((week) => week.includes('2026-03-29'))).toEqual([
      '2026-03-23',
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
    ]);
  });
});

describe('the todos of each day', () => {
  it('in order, untimed first, completed only when shown', () => {
    const todos = [
      todo({ id: 1, title: 'late', dueDate: '2026-12-01', dueTime: '18:00' }),
      todo({ id: 2, title: 'untimed', dueDate: '2026-12-01' }),
      todo({ id: 3, title: 'early', dueDate: '2026-12-01', dueTime: '08:00' }),
      todo({ id: 4, title: 'done', dueDate: '2026-12-01', completed: true }),
      todo({ id: 5, title: 'outside', dueDate: '2027-01-01' }),
      todo({ id: 6, title: 'none' }),
    ];
    const titles = (show: boolean) =>
      entriesByDay(indexByDay(todos), '2026-12-01', '2026-12-31', show)
        .get('2026-12-01')
        ?.map((entry) => entry.todo.title);
    expect(titles(false)).toEqual(['untimed', 'early', 'late']);
    expect(titles(true)).toEqual(['untimed', 'done', 'early', 'late']);
  });

  it('shows the next occurrences of a repeat as occurrences of the one todo', () => {
    const weekly = todo({
      dueDate: '2026-11-30',
      repeat: { every: 1, unit: 'week', weekdays: ['mon', 'thu'], from: 'due' },
    });
    const days = entriesByDay(indexByDay([weekly]), '2026-11-30', '2026-12-13', false);
    expect([...days].map(([date, [entry]]) => [date, entry?.occurrence])).toEqual([
      ['2026-11-30', false],
      ['2026-12-03', true],
      ['2026-12-07', true],
      ['2026-12-10', true],
    ]);
    const fromCompletion = todo({
      dueDate: '2026-11-30',
      repeat: { every: 1, unit: 'day', from: 'completion' },
    });
    expect(entriesByDay(indexByDay([fromCompletion]), '2026-11-30', '2026-12-13', false).size).toBe(
      1,
    );
  });

  it.each([
    { every: 3, unit: 'day', from: 'due' },
    { every: 2, unit: 'week', from: 'due' },
    { every: 2, unit: 'week', weekdays: ['tue', 'sat'], from: 'due' },
    { every: 1, unit: 'month', monthDay: 31, from: 'due' },
  ] as Repeat[])('shows the occurrences of a rule begun long before the month: %j', (repeat) => {
    const due = '2025-01-07';
    const walked: string[] = [];
    for (let date = nextOccurrence(repeat, due); date <= '2026-12-31';) {
      if (date >= '2026-12-01') walked.push(date);
      date = nextOccurrence(repeat, date);
    }
    const days = entriesByDay(
      indexByDay([todo({ dueDate: due, repeat })]),
      '2026-12-01',
      '2026-12-31',
      false,
    );
    expect([...days.keys()].sort()).toEqual(walked);
  });

  it('moves a rule with its todo for all occurrences', () => {
    expect(
      shiftedRepeat({ every: 1, unit: 'week', weekdays: ['mon', 'sun'], from: 'due' }, 1),
    ).toEqual({ every: 1, unit: 'week', weekdays: ['tue', 'mon'], from: 'due' });
    expect(shiftedRepeat({ every: 1, unit: 'month', monthDay: 31, from: 'due' }, -2)).toEqual({
      every: 1,
      unit: 'month',
      from: 'due',
    });
  });
});
