// The write side of statistics, the one module of this feature that others import
// (docs/decisions/043-statistics-write-api.md).
import { SINCE_EVENTS, type SinceEvent, type StatisticEvent } from '@tally/contract';
import type { Db } from '../db/schema.js';
import { batches } from '../shared/batches.js';
import { localDateTime } from '../shared/calendar.js';
import {
  addToHour,
  addToTotals,
  HOURLY_COLUMNS,
  type HourlyColumn,
  insertCompletion,
  insertEvents,
} from './queries.js';

export const HOUR_MS = 3_600_000;

const isHourly = (type: StatisticEvent): type is SinceEvent => type in HOURLY_COLUMNS;

/**
 * Appends statistics events and updates their roll-ups (all-time totals, hourly counts).
 * Callers pass the transaction of the change being counted, so an event exists exactly when its
 * change does (docs/product.md, Statistics). The roll-ups are written last, so their row locks
 * are held for as short a time as possible.
 */
export async function recordEvents(
  db: Db,
  userId: number,
  types: StatisticEvent[],
  at: number,
): Promise<void> {
  if (types.length === 0) return;
  await insertEvents(db, { userId, types, at });

  const counts = new Map<StatisticEvent, number>();
  for (const type of types) counts.set(type, (counts.get(type) ?? 0) + 1);
  await addToTotals(db, { userId, types: [...counts.keys()], counts: [...counts.values()] });

  if (!types.some(isHourly)) return;
  // Every column every time: one statement, adding 0 where an event type did not occur.
  const hourly = Object.fromEntries(SINCE_EVENTS.map((type) => [type, counts.get(type) ?? 0]));
  await addToHour(db, {
    userId,
    hour: Math.floor(at / HOUR_MS),
    ...(hourly as Record<SinceEvent, number>),
  });
}

/** 1 when completed by the end of the due date (or its time), 0 when late, null without one. */
function onTimeOf(
  completion: Pick<Completion, 'dueDate' | 'dueTime'>,
  at: number,
  zone: string,
): number | null {
  if (completion.dueDate === null) return null;
  const { date, time } = localDateTime(at, zone);
  return date < completion.dueDate ||
    (date === completion.dueDate && (completion.dueTime === null || time <= completion.dueTime))
    ? 1
    : 0;
}

export interface Completion {
  todoId: number;
  groupId: number | null;
  /** When the todo was created. */
  createdAt: number;
  /** Its due date and time when it was completed, if any. */
  dueDate: string | null;
  dueTime: string | null;
}

/**
 * Keeps what the insights need of a completion (lead time, on time, group), in the transaction
 * of the change, beside its todosCompleted event. On time means completed by the end of the due
 * date (or by the due time, when there is one) in the user's zone at that moment.
 */
export async function recordCompletion(
  db: Db,
  userId: number,
  completion: Completion,
  at: number,
  zone: string,
): Promise<void> {
  await insertCompletion(db, {
    userId,
    todoId: completion.todoId,
    groupId: completion.groupId,
    createdAt: completion.createdAt,
    at,
    dueDate: completion.dueDate,
    onTime: onTimeOf(completion, at, zone),
  });
}

// --- Many changes at once, each at its own instant (imports) --------------------------------

/** One counted event at its own instant. */
export interface TimedEvent {
  type: StatisticEvent;
  at: number;
}

/**
 * recordEvents for many events at once, each at its own instant (an import counts todos on the
 * days they were made: docs/decisions/051-import-and-export.md). The same rows and roll-ups as
 * one recordEvents call per event, in a few statements per 500 events instead of three each.
 */
export async function recordEventsAt(
  db: Db,
  userId: number,
  events: readonly TimedEvent[],
): Promise<void> {
  for (const batch of batches(events)) {
    await db
      .insertInto('statistic_events')
      .values(batch.map(({ type, at }) => ({ user_id: userId, type, occurred_at: at })))
      .execute();
  }
  await addToRollups(db, userId, events, 1);
}

/**
 * Takes back events an Undo (or a reopen, a restore) withdraws: one row of each, at the instant
 * it was counted, and its place in the totals and the hourly counts, so every answer counts only
 * what stayed done (docs/product.md, Statistics).
 */
export async function withdrawEventsAt(
  db: Db,
  userId: number,
  events: readonly TimedEvent[],
): Promise<void> {
  // One statement per instant and type: a bulk change counted its events at one instant.
  const counts = new Map<string, { type: StatisticEvent; at: number; n: number }>();
  for (const { type, at } of events) {
    const key = `${type} ${at}`;
    const entry = counts.get(key) ?? { type, at, n: 0 };
    entry.n += 1;
    counts.set(key, entry);
  }
  for (const { type, at, n } of counts.values()) {
    await db
      .deleteFrom('statistic_events')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('statistic_events')
          .select('id')
          .where('user_id', '=', userId)
          .where('type', '=', type)
          .where('occurred_at', '=', at)
          .orderBy('id', 'desc')
          .limit(n),
      )
      .execute();
  }
  await addToRollups(db, userId, events, -1);
}

/** Adds (sign 1) or takes away (sign -1) the events in the totals and the hourly counts. */
async function addToRollups(
  db: Db,
  userId: number,
  events: readonly TimedEvent[],
  sign: 1 | -1,
): Promise<void> {
  const totals = new Map<StatisticEvent, number>();
  const hours = new Map<number, Record<SinceEvent, number>>();
  for (const { type, at } of events) {
    totals.set(type, (totals.get(type) ?? 0) + sign);
    if (!isHourly(type)) continue;
    const hour = Math.floor(at / HOUR_MS);
    let counts = hours.get(hour);
    if (!counts) {
      counts = Object.fromEntries(SINCE_EVENTS.map((event) => [event, 0])) as Record<
        SinceEvent,
        number
      >;
      hours.set(hour, counts);
    }
    counts[type] += sign;
  }
  if (totals.size > 0) {
    await addToTotals(db, { userId, types: [...totals.keys()], counts: [...totals.values()] });
  }
  for (const batch of batches([...hours])) {
    await db
      .insertInto('statistic_hours')
      .values(
        batch.map(([hour, counts]) => ({
          user_id: userId,
          hour,
          ...(Object.fromEntries(
            SINCE_EVENTS.map((type) => [HOURLY_COLUMNS[type], counts[type]]),
          ) as Record<HourlyColumn, number>),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'hour']).doUpdateSet((eb) =>
          Object.fromEntries(
            SINCE_EVENTS.map((type) => {
              const column = HOURLY_COLUMNS[type];
              return [column, eb(`statistic_hours.${column}`, '+', eb.ref(`excluded.${column}`))];
            }),
          ),
        ),
      )
      .execute();
  }
}

/** A completion at its own instant; `onTime` as the source recorded it, or worked out here. */
export interface TimedCompletion extends Completion {
  at: number;
  onTime?: boolean | null;
}

/** recordCompletion for many completions at once (an import), each at its own instant. */
export async function recordCompletionsAt(
  db: Db,
  userId: number,
  completions: readonly TimedCompletion[],
  zone: string,
): Promise<void> {
  for (const batch of batches(completions)) {
    await db
      .insertInto('todo_completions')
      .values(
        batch.map((completion) => ({
          user_id: userId,
          todo_id: completion.todoId,
          group_id: completion.groupId,
          created_at: completion.createdAt,
          completed_at: completion.at,
          due_date: completion.dueDate,
          on_time:
            completion.onTime === undefined
              ? onTimeOf(completion, completion.at, zone)
              : completion.onTime === null
                ? null
                : Number(completion.onTime),
        })),
      )
      .execute();
  }
}

/**
 * A reopened todo did not stay done: its latest completion is withdrawn, with the
 * todosCompleted event counted beside it (docs/product.md, Statistics). A todo without one (done
 * before completions were kept) withdraws nothing.
 */
export async function withdrawCompletions(
  db: Db,
  userId: number,
  todoIds: readonly number[],
): Promise<void> {
  // One read per batch of todos, not one per todo: a bulk Reopen takes up to 1,000.
  const latest = new Map<number, { id: number; at: number }>();
  for (const batch of batches(todoIds)) {
    const rows = await db
      .selectFrom('todo_completions')
      .select(['id', 'todo_id', 'completed_at'])
      .where('user_id', '=', userId)
      .where('todo_id', 'in', batch)
      .execute();
    for (const row of rows) {
      const at = Number(row.completed_at);
      const kept = latest.get(row.todo_id);
      if (!kept || at > kept.at || (at === kept.at && row.id > kept.id)) {
        latest.set(row.todo_id, { id: row.id, at });
      }
    }
  }
  const withdrawn = [...latest.values()];
  for (const batch of batches(withdrawn)) {
    await db
      .deleteFrom('todo_completions')
      .where(
        'id',
        'in',
        batch.map(({ id }) => id),
      )
      .execute();
  }
  await withdrawEventsAt(
    db,
    userId,
    withdrawn.map(({ at }) => ({ type: 'todosCompleted', at })),
  );
}
