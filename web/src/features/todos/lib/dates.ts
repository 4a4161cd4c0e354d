import type { Todo } from '@tally/contract';
import { MONTHS_SHORT } from '#web/lib/format';

/**
 * Calendar days as 'YYYY-MM-DD' in the browser's own time zone (the zone the client sends as
 * x-time-zone, so the server's Today and Upcoming agree with these labels).
 */

const WEEKDAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTH_LONG = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** The local calendar date of a moment. */
export function dateOf(moment: Date): string {
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`;
}

/** The local time of a moment as HH:mm. */
function timeOf(moment: Date): string {
  return `${pad(moment.getHours())}:${pad(moment.getMinutes())}`;
}

/** The date's parts (month 1-12); null unless 'YYYY-MM-DD'. */
export function parseDate(date: string): { year: number; month: number; day: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

/** Calendar arithmetic in UTC, so no daylight-saving shift ever moves a day. */
function utcOf(date: string): Date {
  const parts = parseDate(date);
  return parts ? new Date(Date.UTC(parts.year, parts.month - 1, parts.day)) : new Date(Number.NaN);
}

/** The date `days` after (before, when negative) the given one. */
export function addDays(date: string, days: number): string {
  const utc = utcOf(date);
  utc.setUTCDate(utc.getUTCDate() + days);
  return utc.toISOString().slice(0, 10);
}

/** Sunday = 0 … Saturday = 6, as Date.getDay(). */
export const weekdayOf = (date: string): number => utcOf(date).getUTCDay();

/** "Mon 4 Dec", with the year ("Mon 4 Dec 2027") when it is not this year. */
function formatDay(date: string, today: string): string {
  const parts = parseDate(date);
  if (!parts) return date;
  const text = `${WEEKDAY_SHORT[weekdayOf(date)]} ${parts.day} ${MONTHS_SHORT[parts.month - 1]}`;
  return parts.year === parseDate(today)?.year ? text : `${text} ${parts.year}`;
}

/** "4 December", for yearly rules. */
export function formatDayOfYear(date: string): string {
  const parts = parseDate(date);
  return parts ? `${parts.day} ${MONTH_LONG[parts.month - 1]}` : date;
}

/** "Today", "Tomorrow", "Yesterday", else "Mon 4 Dec" (with the year when not this year). */
export function dayLabel(date: string, today: string): string {
  if (date === today) return 'Today';
  if (date === addDays(today, 1)) return 'Tomorrow';
  if (date === addDays(today, -1)) return 'Yesterday';
  return formatDay(date, today);
}

/** "Today 17:00", "Tomorrow", "Mon 4 Dec"; null without a due date. */
export function dueLabel(todo: Pick<Todo, 'dueDate' | 'dueTime'>, now: Date): string | null {
  if (!todo.dueDate) return null;
  const day = dayLabel(todo.dueDate, dateOf(now));
  return todo.dueTime ? `${day} ${todo.dueTime}` : day;
}

/**
 * Open and due before today, or today at a time already past (the server's Overdue view uses
 * the same rule).
 */
export function isOverdue(
  todo: Pick<Todo, 'dueDate' | 'dueTime' | 'completed'>,
  now: Date,
): boolean {
  if (todo.completed || !todo.dueDate) return false;
  const today = dateOf(now);
  if (todo.dueDate < today) return true;
  return todo.dueDate === today && todo.dueTime !== null && todo.dueTime < timeOf(now);
}
