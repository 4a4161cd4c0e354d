import { WEEKDAYS, type Repeat, type Weekday } from '@tally/contract';
import { addDays, daysInMonth, formatDate, parseDate, weekdayOf } from '@tally/contract/dates';
import { badRequest } from '../shared/errors.js';

/**
 * The rules of due dates and repeats (docs/product.md, Planning), on calendar dates only: a due
 * date is a day of the user's own calendar, so no time zone enters the arithmetic.
 */

export interface Planning {
  dueDate: string | null;
  dueTime: string | null;
  repeat: Repeat | null;
}

const weekdayIndex = (day: Weekday) => WEEKDAYS.indexOf(day);

/** The month `months` after the date's (1-based month), as year and month. */
function shiftMonth(year: number, month: number, months: number) {
  const index = year * 12 + (month - 1) + months;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** The given day of the month, or the month's last day when it is shorter. */
const dayOfMonth = (year: number, month: number, day: number) =>
  formatDate(year, month, Math.min(day, daysInMonth(year, month)));

/** The nth weekday of a month (n = -1: the last one). */
function nthWeekdayOf(year: number, month: number, n: number, weekday: Weekday): string {
  const target = weekdayIndex(weekday);
  if (n === -1) {
    const last = formatDate(year, month, daysInMonth(year, month));
    return addDays(last, -((weekdayOf(last) - target + 7) % 7));
  }
  const first = formatDate(year, month, 1);
  const firstMatch = addDays(first, (target - weekdayOf(first) + 7) % 7);
  const date = addDays(firstMatch, 7 * (n - 1));
  // A fifth weekday the month does not have falls back to its last one.
  return parseDate(date)?.month === month ? date : addDays(date, -7);
}

/** The month's occurrence of a monthly or yearly rule. */
function occurrenceIn(repeat: Repeat, year: number, month: number): string {
  if (repeat.nthWeekday) {
    return nthWeekdayOf(year, month, repeat.nthWeekday.n, repeat.nthWeekday.weekday);
  }
  return dayOfMonth(year, month, repeat.monthDay ?? 1);
}

/**
 * The first occurrence after `base`: the due date (from = due) or the day it was completed
 * (from = completion). Always later than `base`.
 */
export function nextOccurrence(repeat: Repeat, base: string): string {
  const parsed = parseDate(base);
  if (!parsed) throw new RangeError(`Not a date: ${base}`);
  const { every } = repeat;
  switch (repeat.unit) {
    case 'day':
      return addDays(base, every);
    case 'week': {
      if (!repeat.weekdays?.length) return addDays(base, 7 * every);
      const days = repeat.weekdays.map(weekdayIndex).sort((a, b) => a - b);
      const today = weekdayOf(base);
      const laterThisWeek = days.find((day) => day > today);
      if (laterThisWeek !== undefined) return addDays(base, laterThisWeek - today);
      // The first chosen day of the week `every` weeks on.
      const monday = addDays(base, -today);
      return addDays(monday, 7 * every + (days[0] ?? 0));
    }
    case 'month': {
      if (repeat.from === 'completion') {
        // `every` months after the day it was done (the nth weekday of that month, if set).
        const next = shiftMonth(parsed.year, parsed.month, every);
        return repeat.nthWeekday
          ? occurrenceIn(repeat, next.year, next.month)
          : dayOfMonth(next.year, next.month, parsed.day);
      }
      const sameMonth = occurrenceIn(repeat, parsed.year, parsed.month);
      if (sameMonth > base) return sameMonth;
      const next = shiftMonth(parsed.year, parsed.month, every);
      return occurrenceIn(repeat, next.year, next.month);
    }
    case 'year': {
      // A due date keeps the rule's day (29 February comes back in leap years).
      const day = repeat.from === 'completion' ? parsed.day : (repeat.monthDay ?? parsed.day);
      return dayOfMonth(parsed.year + every, parsed.month, day);
    }
  }
}

/**
 * nextOccurrence, or null when the rule has no date left: Tally keeps four-digit years, so a
 * todo's dates end on 9999-12-31 (docs/product.md, Planning). Past it the date helpers meet a
 * five-digit year, which is no date to them (a RangeError), or write one ("+010000-01").
 */
export function nextOccurrenceBefore10000(repeat: Repeat, base: string): string | null {
  try {
    const next = nextOccurrence(repeat, base);
    return parseDate(next) ? next : null;
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/**
 * The todo's planning after a change: omitted fields keep their value, null clears them. Checks
 * what the schema cannot (a real date, a time or repeat only with a date, rule parts that fit the
 * unit) and completes a monthly or yearly rule with the day it keeps.
 */
export function mergePlanning(
  current: Planning,
  change: { dueDate?: string | null; dueTime?: string | null; repeat?: Repeat | null },
): Planning {
  const dueDate = change.dueDate === undefined ? current.dueDate : change.dueDate;
  let dueTime = change.dueTime === undefined ? current.dueTime : change.dueTime;
  let repeat = change.repeat === undefined ? current.repeat : change.repeat;
  if (dueDate !== null && !parseDate(dueDate)) {
    throw badRequest('dueDate must be a real calendar date (YYYY-MM-DD)');
  }
  if (dueDate === null) {
    // Clearing the date clears what only makes sense with one.
    if (change.dueTime) throw badRequest('dueTime needs a dueDate');
    if (change.repeat) throw badRequest('repeat needs a dueDate');
    dueTime = null;
    repeat = null;
  }
  if (repeat) repeat = normalizeRepeat(repeat, dueDate as string);
  return { dueDate, dueTime, repeat };
}

function normalizeRepeat(repeat: Repeat, dueDate: string): Repeat {
  if (repeat.weekdays && repeat.unit !== 'week') {
    throw badRequest('repeat.weekdays is only for a weekly repeat');
  }
  if (repeat.nthWeekday && repeat.unit !== 'month') {
    throw badRequest('repeat.nthWeekday is only for a monthly repeat');
  }
  if (repeat.monthDay !== undefined && repeat.unit !== 'month' && repeat.unit !== 'year') {
    throw badRequest('repeat.monthDay is only for a monthly or yearly repeat');
  }
  if (repeat.monthDay !== undefined && repeat.nthWeekday) {
    throw badRequest('repeat takes monthDay or nthWeekday, not both');
  }
  const due = parseDate(dueDate);
  if ((repeat.unit === 'month' || repeat.unit === 'year') && !repeat.nthWeekday && due) {
    // The day it keeps, so the 31st comes back after a shorter month.
    return { ...repeat, monthDay: repeat.monthDay ?? due.day };
  }
  return repeat;
}
