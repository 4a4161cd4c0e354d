import type { Todo } from '@tally/contract';
import { addDays, pad, parseDate, weekdayOf as mondayFirstWeekdayOf } from '@tally/contract/dates';
import { MONTHS_SHORT } from '#web/lib/format';

// The calendar rules the server uses too, from the contract (one copy).
export { addDays, parseDate };

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

/** The local calendar date of a moment. */
export function dateOf(moment: Date): string {
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`;
}

/** The local time of a moment as HH:mm. */
function timeOf(moment: Date): string {
  return `${pad(moment.getHours())}:${pad(moment.getMinutes())}`;
}

/** Sunday = 0 … Saturday = 6, as Date.getDay() (the contract's weekdayOf starts on Monday). */
export const weekdayOf = (date: string): number => (mondayFirstWeekdayOf(date) + 1) % 7;

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
