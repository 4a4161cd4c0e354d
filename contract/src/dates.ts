/**
 * Calendar dates as 'YYYY-MM-DD' strings, computed in UTC so no daylight-saving shift ever moves
 * a day. One copy for the server (planning, the calendar feed, insights, imports) and the web
 * (the light entry `@tally/contract/dates`): it imports nothing.
 */

/** A whole number as text of at least `width` digits (its fraction dropped). */
export const pad = (n: number, width = 2): string => String(Math.trunc(n)).padStart(width, '0');

/** 'YYYY-MM-DD' of a year, month (1-12) and day. */
export const formatDate = (year: number, month: number, day: number): string =>
  `${pad(year, 4)}-${pad(month)}-${pad(day)}`;

/** Parses 'YYYY-MM-DD'; null unless it is a real date between 1970 and 9999. */
export function parseDate(value: string): { year: number; month: number; day: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1970 || month < 1 || month > 12 || day < 1) return null;
  const probe = new Date(Date.UTC(year, month - 1, day));
  return probe.getUTCDate() === day ? { year, month, day } : null;
}

/** The date `days` after (or before, when negative) the given date. */
export function addDays(date: string, days: number): string {
  const parsed = parseDate(date);
  if (!parsed) throw new RangeError(`Not a date: ${date}`);
  return new Date(Date.UTC(parsed.year, parsed.month - 1, parsed.day + days))
    .toISOString()
    .slice(0, 10);
}

/** How many days the month (1-12) of the year has. */
export const daysInMonth = (year: number, month: number): number =>
  new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Days of the week, Monday first (weeks start on Monday in Tally). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Monday = 0 … Sunday = 6, the date's index in WEEKDAYS. */
export const weekdayOf = (date: string): number =>
  (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
