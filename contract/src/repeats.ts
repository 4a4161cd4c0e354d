import type { Repeat, Weekday } from './todos.js';
import { addDays, daysInMonth, formatDate, parseDate, WEEKDAYS, weekdayOf } from './dates.js';

/**
 * The next occurrence of a repeating todo (docs/product.md, Planning), on calendar dates only: a
 * due date is a day of the user's own calendar, so no time zone enters the arithmetic. One copy
 * for the server (completing moves a todo on) and the web (the calendar shows the occurrences to
 * come), as the light entry `@tally/contract/repeats`.
 */

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
