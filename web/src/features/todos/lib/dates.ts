import type { Todo } from '@tally/contract';
import { pad, parseDate } from '@tally/contract/dates';
import { isOverdue as isOverdueAt } from '@tally/contract/todo-shape';
import { formatDue, relativeDay } from '#web/lib/date-format';

// The calendar rules the server uses too, from the contract (one copy).
export { parseDate };

/**
 * Calendar days as 'YYYY-MM-DD' in the browser's own time zone (the zone the client sends as
 * x-time-zone, so the server's Today and Upcoming agree with these labels).
 */

/** The local calendar date of a moment. */
export function dateOf(moment: Date): string {
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`;
}

/** The local time of a moment as HH:mm. */
function timeOf(moment: Date): string {
  return `${pad(moment.getHours())}:${pad(moment.getMinutes())}`;
}

/** "Today", "Tomorrow", "Yesterday", else the day in the browser's locale (lib/date-format). */
export const dayLabel = (date: string, today: string): string => relativeDay(date, today);

/** "Today 17:00" / "Today 5:00 PM", "Tomorrow", "Mon 4 Dec"; null without a due date. */
export function dueLabel(todo: Pick<Todo, 'dueDate' | 'dueTime'>, now: Date): string | null {
  return todo.dueDate ? formatDue(todo.dueDate, todo.dueTime, dateOf(now)) : null;
}

/** Overdue now, in the browser's zone (the server's Overdue view's rule, from the contract). */
export const isOverdue = (todo: Pick<Todo, 'dueDate' | 'dueTime' | 'completed'>, now: Date) =>
  isOverdueAt(todo, dateOf(now), timeOf(now));
