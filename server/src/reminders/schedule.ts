import { TZDate } from '@date-fns/tz';
import { parseDate } from '@tally/contract/dates';
import type { Db } from '../db/schema.js';
import { badRequest } from '../shared/errors.js';

/**
 * When a todo's reminder goes out (docs/product.md, Reminders). The due date and time are the
 * user's own calendar day and clock time, so the instant is computed here, in TypeScript, in the
 * zone the browser reported, and stored as epoch milliseconds: both databases then find what is
 * due with the same range query, and a restart loses nothing.
 */

/** The instant a date and HH:mm time mean in the zone (a time in a DST gap moves forward). */
export function instantOf(dueDate: string, dueTime: string, zone: string): number {
  const date = parseDate(dueDate);
  const [hours, minutes] = dueTime.split(':').map(Number);
  if (!date || hours === undefined || minutes === undefined) {
    throw new RangeError(`Not a due date and time: ${dueDate} ${dueTime}`);
  }
  return new TZDate(date.year, date.month - 1, date.day, hours, minutes, zone).getTime();
}

/**
 * The reminder offset after a change: omitted keeps it, null clears it. It needs a due time, so
 * clearing the time (or the date) clears it too, and asking for one without a time is a 400.
 */
export function mergeRemindMinutesBefore(
  current: number | null,
  change: number | null | undefined,
  dueTime: string | null,
): number | null {
  if (dueTime === null) {
    if (change !== undefined && change !== null) {
      throw badRequest('remindMinutesBefore needs a dueTime');
    }
    return null;
  }
  return change === undefined ? current : change;
}

export interface ReminderTodo {
  id: number;
  userId: number;
  completed: boolean;
  dueDate: string | null;
  dueTime: string | null;
  remindMinutesBefore: number | null;
}

/**
 * Makes the todo's reminder row match the todo: removed when it has no reminder, is completed
 * or is already past its due time; otherwise (re)armed for its current occurrence. Called in the
 * transaction that changed the todo's planning, never on a change that left it alone, so a
 * reminder that went out is not sent again because the title was edited.
 */
export async function scheduleReminder(
  db: Db,
  todo: ReminderTodo,
  zone: string,
  now: number,
): Promise<void> {
  const { dueDate, dueTime, remindMinutesBefore } = todo;
  const due = dueDate === null || dueTime === null ? null : instantOf(dueDate, dueTime, zone);
  // Nothing to remind of: no reminder, done, or already past its due time (an overdue todo
  // waits for a repeat to move it on).
  if (todo.completed || remindMinutesBefore === null || due === null || due <= now) {
    await db.deleteFrom('reminders').where('todo_id', '=', todo.id).execute();
    return;
  }
  const fireAt = due - remindMinutesBefore * 60_000;
  // Both are set: `due` was computed from them.
  const row = {
    fire_at: fireAt,
    due_date: dueDate as string,
    due_time: dueTime as string,
    time_zone: zone,
  };
  await db
    .insertInto('reminders')
    .values({ todo_id: todo.id, user_id: todo.userId, ...row, sent_at: null })
    .onConflict((conflict) => conflict.column('todo_id').doUpdateSet({ ...row, sent_at: null }))
    .execute();
}

/** scheduleReminder for each todo of a bulk change that has (or had) a reminder offset. */
export async function scheduleReminders(
  db: Db,
  userId: number,
  todos: readonly Omit<ReminderTodo, 'userId'>[],
  zone: string,
  now: number,
): Promise<void> {
  for (const todo of todos) {
    if (todo.remindMinutesBefore !== null)
      await scheduleReminder(db, { ...todo, userId }, zone, now);
  }
}
