import type { Repeat } from '@tally/contract';
import { describe, expect, it } from 'vitest';
import { nextOccurrence } from '@tally/contract/repeats';
import { mergePlanning } from './planning.js';

const rule = (repeat: Partial<Repeat> & Pick<Repeat, 'unit'>): Repeat => ({
  every: 1,
  from: 'due',
  ...repeat,
});
/** Follows the rule from a first date, n occurrences. */
const series = (repeat: Repeat, first: string, n: number) => {
  const dates = [first];
  for (let i = 1; i < n; i++) dates.push(nextOccurrence(repeat, dates[i - 1] as string));
  return dates;
};

describe('nextOccurrence', () => {
  it('counts days and weeks', () => {
    expect(nextOccurrence(rule({ unit: 'day', every: 3 }), '2026-12-30')).toBe('2027-01-02');
    expect(nextOccurrence(rule({ unit: 'week', every: 2 }), '2026-11-23')).toBe('2026-12-07');
  });

  it('goes through the chosen weekdays, then jumps `every` weeks', () => {
    const monWedFri = rule({ unit: 'week', weekdays: ['fri', 'mon', 'wed'] });
    // 2026-11-23 is a Monday.
    expect(series(monWedFri, '2026-11-23', 5)).toEqual([
      '2026-11-23',
      '2026-11-25',
      '2026-11-27',
      '2026-11-30',
      '2026-12-02',
    ]);
    const everyOtherTuesday = rule({ unit: 'week', every: 2, weekdays: ['tue'] });
    expect(series(everyOtherTuesday, '2026-11-24', 3)).toEqual([
      '2026-11-24',
      '2026-12-08',
      '2026-12-22',
    ]);
  });

  it('keeps the 31st through shorter months', () => {
    const monthly = mergePlanning(
      { dueDate: null, dueTime: null, repeat: null },
      { dueDate: '2027-01-31', repeat: rule({ unit: 'month' }) },
    ).repeat as Repeat;
    expect(monthly.monthDay).toBe(31);
    expect(series(monthly, '2027-01-31', 5)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
    ]);
    expect(series(rule({ unit: 'month', monthDay: 30 }), '2028-01-30', 3)).toEqual([
      '2028-01-30',
      '2028-02-29',
      '2028-03-30',
    ]);
  });

  it('finds the nth and the last weekday of a month', () => {
    const lastFriday = rule({ unit: 'month', nthWeekday: { n: -1, weekday: 'fri' } });
    expect(series(lastFriday, '2026-11-27', 4)).toEqual([
      '2026-11-27',
      '2026-12-25',
      '2027-01-29',
      '2027-02-26',
    ]);
    const secondTuesday = rule({ unit: 'month', nthWeekday: { n: 2, weekday: 'tue' } });
    expect(series(secondTuesday, '2026-11-10', 3)).toEqual([
      '2026-11-10',
      '2026-12-08',
      '2027-01-12',
    ]);
    // A fifth Monday the month lacks falls on its last Monday.
    const fifthMonday = rule({ unit: 'month', nthWeekday: { n: 5, weekday: 'mon' } });
    expect(nextOccurrence(fifthMonday, '2026-11-30')).toBe('2026-12-28');
  });

  it('brings 29 February back in leap years', () => {
    const yearly = rule({ unit: 'year', monthDay: 29 });
    expect(series(yearly, '2028-02-29', 5)).toEqual([
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
      '2032-02-29',
    ]);
  });

  it('counts from the day of completion when asked to', () => {
    expect(nextOccurrence(rule({ unit: 'day', every: 2, from: 'completion' }), '2026-11-25')).toBe(
      '2026-11-27',
    );
    expect(
      nextOccurrence(rule({ unit: 'month', monthDay: 1, from: 'completion' }), '2027-01-31'),
    ).toBe('2027-02-28');
  });
});

describe('mergePlanning', () => {
  const none = { dueDate: null, dueTime: null, repeat: null };
  const planned = { dueDate: '2026-12-01', dueTime: '09:00', repeat: rule({ unit: 'day' }) };

  it('keeps omitted fields and clears null ones', () => {
    expect(mergePlanning(planned, {})).toEqual(planned);
    expect(mergePlanning(planned, { dueTime: null })).toEqual({ ...planned, dueTime: null });
    // Without a date, a time or a repeat means nothing.
    expect(mergePlanning(planned, { dueDate: null })).toEqual(none);
  });

  it.each([
    [{ dueDate: '2026-02-30' }, 'dueDate must be a real calendar date'],
    [{ dueTime: '09:00' }, 'dueTime needs a dueDate'],
    [{ repeat: rule({ unit: 'day' }) }, 'repeat needs a dueDate'],
    [
      { dueDate: '2026-12-01', repeat: rule({ unit: 'day', weekdays: ['mon'] }) },
      'repeat.weekdays is only for a weekly repeat',
    ],
    [
      {
        dueDate: '2026-12-01',
        repeat: rule({ unit: 'week', nthWeekday: { n: 1, weekday: 'mon' } }),
      },
      'repeat.nthWeekday is only for a monthly repeat',
    ],
    [
      {
        dueDate: '2026-12-01',
        repeat: rule({ unit: 'month', monthDay: 3, nthWeekday: { n: 1, weekday: 'mon' } }),
      },
      'monthDay or nthWeekday, not both',
    ],
  ])('refuses %j (%s)', (change, message) => {
    expect(() => mergePlanning(none, change)).toThrow(message);
  });
});
