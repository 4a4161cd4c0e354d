import { addDays, daysInMonth, formatDate, parseDate, weekdayOf } from '../dates.js';

/**
 * The dates a filter names, in the forms people type them ("2026-12-12", "Dec 12", "12 December
 * 2026", "today", "next monday", "in 3 days", "2 weeks ago"), read against the user's today.
 * Small and dependency-free on purpose: the web app reads filters offline on every list it shows,
 * so it cannot wait for quick add's chrono-node reader. A month and day without a year are in
 * this year, since a filter looks back as often as forward.
 */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const monthOf = (word: string): number | undefined => {
  const lower = word.toLowerCase().replace(/\.$/, '');
  if (lower.length < 3) return undefined;
  const index = MONTHS.findIndex((month) => month.startsWith(lower) && lower.length >= 3);
  // "sept" is September's other short form.
  if (index === -1 && lower === 'sept') return 9;
  return index === -1 ? undefined : index + 1;
};

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const dayOf = (word: string): number | undefined => {
  const lower = word.toLowerCase();
  if (lower.length < 3) return undefined;
  const index = DAYS.findIndex((day) => day.startsWith(lower));
  return index === -1 ? undefined : index;
};

const UNITS: Record<string, 'day' | 'week' | 'month' | 'year'> = {
  day: 'day',
  days: 'day',
  week: 'week',
  weeks: 'week',
  month: 'month',
  months: 'month',
  year: 'year',
  years: 'year',
};

/** The date `n` units after `date` (before when negative), the day kept within the month. */
function shift(date: string, n: number, unit: 'day' | 'week' | 'month' | 'year'): string | null {
  if (unit === 'day') return addDays(date, n);
  if (unit === 'week') return addDays(date, 7 * n);
  const parsed = parseDate(date);
  if (!parsed) return null;
  const months = parsed.year * 12 + parsed.month - 1 + (unit === 'month' ? n : 12 * n);
  const year = Math.floor(months / 12);
  const month = (months % 12) + 1;
  const result = formatDate(year, month, Math.min(parsed.day, daysInMonth(year, month)));
  return parseDate(result) ? result : null;
}

const dated = (year: number, month: number, day: number): string | null => {
  const date = formatDate(year, month, day);
  return parseDate(date) ? date : null;
};

/** The date the words name (YYYY-MM-DD), relative to `today`; null when they name none. */
export function readFilterDate(text: string, today: string): string | null {
  const words = text.trim().toLowerCase().split(/\s+/);
  const phrase = words.join(' ');
  if (/^\d{4}-\d{2}-\d{2}$/.test(phrase)) return parseDate(phrase) ? phrase : null;
  if (phrase === 'today') return today;
  if (phrase === 'tomorrow') return addDays(today, 1);
  if (phrase === 'yesterday') return addDays(today, -1);
  const year = Number(today.slice(0, 4));

  // in 3 days, in 2 weeks
  let match = /^in (\d{1,4}) ([a-z]+)$/.exec(phrase);
  if (match) {
    const unit = UNITS[match[2] ?? ''];
    return unit ? shift(today, Number(match[1]), unit) : null;
  }
  // 3 days ago
  match = /^(\d{1,4}) ([a-z]+) ago$/.exec(phrase);
  if (match) {
    const unit = UNITS[match[2] ?? ''];
    return unit ? shift(today, -Number(match[1]), unit) : null;
  }
  // next week, next month, next year: the same day one unit later
  match = /^next (week|month|year)$/.exec(phrase);
  if (match) return shift(today, 1, UNITS[match[1] ?? ''] ?? 'day');
  // monday (today or the coming one), next monday (the coming one after today), last monday
  match = /^(next |last )?([a-z]+)$/.exec(phrase);
  if (match) {
    const day = dayOf(match[2] ?? '');
    if (day !== undefined) {
      const ahead = (day - weekdayOf(today) + 7) % 7;
      if (match[1] === 'last ') return addDays(today, ahead === 0 ? -7 : ahead - 7);
      return addDays(today, match[1] === 'next ' && ahead === 0 ? 7 : ahead);
    }
  }
  // Dec 12, December 12 2026, Dec 12th
  match = /^([a-z]+\.?) (\d{1,2})(?:st|nd|rd|th)?(?: (\d{4}))?$/.exec(phrase);
  if (match) {
    const month = monthOf(match[1] ?? '');
    return month ? dated(match[3] ? Number(match[3]) : year, month, Number(match[2])) : null;
  }
  // 12 Dec, 12th December 2026
  match = /^(\d{1,2})(?:st|nd|rd|th)? ([a-z]+\.?)(?: (\d{4}))?$/.exec(phrase);
  if (match) {
    const month = monthOf(match[2] ?? '');
    return month ? dated(match[3] ? Number(match[3]) : year, month, Number(match[1])) : null;
  }
  return null;
}

/**
 * The instant (ms since 1970) a day starts in an IANA zone: found from the zone's offset at
 * that day's UTC midnight, checked once more for a day on which the offset changes.
 */
export function startOfDayIn(date: string, timeZone: string): number {
  const parsed = parseDate(date);
  if (!parsed) throw new RangeError(`Not a date: ${date}`);
  const utc = Date.UTC(parsed.year, parsed.month - 1, parsed.day);
  let start = utc - offsetAt(utc, timeZone);
  const again = utc - offsetAt(start, timeZone);
  if (again !== start) start = Math.min(start, again);
  return start;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at the instant, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(instant)) parts[part.type] = Number(part.value);
  const wall = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return wall - (instant - (instant % 1000));
}

/** The date (YYYY-MM-DD) and clock time (HH:mm) of an instant in an IANA zone. */
export function wallClockIn(instant: number, timeZone: string): { today: string; time: string } {
  const wall = new Date(instant + offsetAt(instant, timeZone)).toISOString();
  return { today: wall.slice(0, 10), time: wall.slice(11, 16) };
}
