import { TZDate } from '@date-fns/tz';
import { parseDate } from '@tally/contract/dates';
import type { Db } from '../db/schema.js';
import { batches } from '../shared/batches.js';
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

/** A list of reminders as the todo keeps it: each offset once, largest (first to go out) first. */
const normalReminders = (offsets: readonly number[]): number[] =>
  [...new Set(offsets)].sort((a, b) => b - a);

/**
 * A todo's reminders after a change (docs/decisions/175-several-reminders-per-todo.md).
 * `reminders` replaces them all. `remindMinutesBefore`, all that a client of the original API
 * knows, is the first of them (the largest offset): writing it replaces only that one and keeps
 * the others it cannot see, null removes only that one, so such a client never drops a reminder
 * it was not shown; sent together with `reminders`, it must be their first. They need a due time,
 * so clearing the time (or the date) clears them, and asking for one without a time is a 400.
 */
export function mergeReminders(
  current: readonly number[],
  change: {
    reminders?: readonly number[] | undefined;
    remindMinutesBefore?: number | null | undefined;
  },
  dueTime: string | null,
): number[] {
  const { reminders, remindMinutesBefore } = change;
  let next: number[];
  if (reminders !== undefined) {
    next = normalReminders(reminders);
    if (remindMinutesBefore !== undefined && remindMinutesBefore !== (next[0] ?? null)) {
      throw badRequest(
        'remindMinutesBefore must be the first (largest) of reminders when both are sent',
      );
    }
  } else if (remindMinutesBefore === undefined) {
    next = [...current];
  } else {
    const rest = current.slice(1);
    next = normalReminders(remindMinutesBefore === null ? rest : [remindMinutesBefore, ...rest]);
  }
  if (dueTime === null) {
    if (reminders !== undefined && next.length > 0) throw badRequest('reminders need a dueTime');
    if (remindMinutesBefore !== undefined && remindMinutesBefore !== null) {
      throw badRequest('remindMinutesBefore needs a dueTime');
    }
    return [];
  }
  return next;
}

export interface ReminderTodo {
  id: number;
  userId: number;
  completed: boolean;
  dueDate: string | null;
  dueTime: string | null;
  /** Minutes before the due time, largest first (the todo's `reminders`). */
  reminders: readonly number[];
}

/**
 * Makes the todo's reminder rows match the todo, one per offset: all removed when it has no
 * reminder, is completed or is already past its due time; otherwise each (re)armed for its
 * current occurrence. A row whose instant did not change keeps its sent mark, so adding a second
 * reminder does not send the first again. Called in the transaction that changed the todo's
 * planning or reminders, never on a change that left them alone, so a reminder that went out is
 * not sent again because the title was edited. An offset already past (a day before, set two
 * hours before the due time) goes out at once, as a single reminder always did.
 */
export async function scheduleReminder(
  db: Db,
  todo: ReminderTodo,
  zone: string,
  now: number,
): Promise<void> {
  const { dueDate, dueTime, reminders } = todo;
  const due = dueDate === null || dueTime === null ? null : instantOf(dueDate, dueTime, zone);
  // Nothing to remind of: no reminder, done, or already past its due time (an overdue todo
  // waits for a repeat to move it on).
  if (todo.completed || reminders.length === 0 || due === null || due <= now) {
    await db.deleteFrom('reminders').where('todo_id', '=', todo.id).execute();
    return;
  }
  await db
    .deleteFrom('reminders')
    .where('todo_id', '=', todo.id)
    .where('minutes_before', 'not in', reminders)
    .execute();
  // Both are set: `due` was computed from them.
  const occurrence = { due_date: dueDate as string, due_time: dueTime as string, time_zone: zone };
  await db
    .insertInto('reminders')
    .values(
      reminders.map((minutes) => ({
        todo_id: todo.id,
        minutes_before: minutes,
        user_id: todo.userId,
        fire_at: due - minutes * 60_000,
        ...occurrence,
        sent_at: null,
      })),
    )
    .onConflict((conflict) =>
      conflict.columns(['todo_id', 'minutes_before']).doUpdateSet((eb) => ({
        ...occurrence,
        fire_at: eb.ref('excluded.fire_at'),
        // Moved: it goes out again at its new instant; unmoved, as it was (sent or waiting).
        sent_at: eb
          .case()
          .when('reminders.fire_at', '=', eb.ref('excluded.fire_at'))
          .then(eb.ref('reminders.sent_at'))
          .else(null)
          .end(),
        push_at: eb
          .case()
          .when('reminders.fire_at', '=', eb.ref('excluded.fire_at'))
          .then(eb.ref('reminders.push_at'))
          .else(null)
          .end(),
      })),
    )
    .execute();
}

/** scheduleReminder for each todo of a bulk change that has (or had) reminders. */
export async function scheduleReminders(
  db: Db,
  userId: number,
  todos: readonly Omit<ReminderTodo, 'userId'>[],
  zone: string,
  now: number,
): Promise<void> {
  // A todo left without reminders (a cleared due date takes its time and reminders with it)
  // keeps no rows either: one statement per slice for all such todos.
  const without = todos.filter((todo) => todo.reminders.length === 0).map((todo) => todo.id);
  for (const ids of batches(without)) {
    await db.deleteFrom('reminders').where('todo_id', 'in', ids).execute();
  }
  for (const todo of todos) {
    if (todo.reminders.length > 0) await scheduleReminder(db, { ...todo, userId }, zone, now);
  }
}
