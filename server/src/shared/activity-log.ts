import type { StatisticEvent } from '@tally/contract';
import type { Compilable, Kysely, Transaction } from 'kysely';
import { compiledShape } from '../db/prepared.js';
import type { Database, StatisticHoursTable } from '../db/schema.js';

export const HOUR_MS = 3_600_000;

/** The event types kept per hour (the daily and "since" answers), and their columns. */
export const HOURLY_COLUMNS = {
  todosCreated: 'todos_created',
  todosCompleted: 'todos_completed',
  groupsCreated: 'groups_created',
  logins: 'logins',
  todosDeleted: 'todos_deleted',
} as const satisfies Partial<Record<StatisticEvent, keyof StatisticHoursTable>>;

type HourlyEvent = keyof typeof HOURLY_COLUMNS;
type HourlyColumn = (typeof HOURLY_COLUMNS)[HourlyEvent];
const isHourly = (type: StatisticEvent): type is HourlyEvent => type in HOURLY_COLUMNS;

type Db = Kysely<Database> | Transaction<Database>;
type Shape = (db: Db, ...args: unknown[]) => Promise<unknown>;

/** One compiled statement per number of rows (a change counts one to five events). */
function byRows(build: (db: Db, rows: number, args: unknown[]) => Compilable<unknown>) {
  const shapes = new Map<number, Shape>();
  return (db: Db, rows: number, ...args: unknown[]) => {
    let shape = shapes.get(rows);
    if (!shape) {
      shape = compiledShape((executor: Db, ...slots: unknown[]) => build(executor, rows, slots));
      shapes.set(rows, shape);
    }
    return shape(db, ...args);
  };
}

const insertEvents = byRows((db, rows, args) =>
  db.insertInto('statistic_events').values(
    Array.from({ length: rows }, (_, i) => ({
      user_id: args[3 * i] as number,
      type: args[3 * i + 1] as string,
      occurred_at: args[3 * i + 2] as number,
    })),
  ),
);

const addToTotals = byRows((db, rows, args) =>
  db
    .insertInto('statistic_totals')
    .values(
      Array.from({ length: rows }, (_, i) => ({
        user_id: args[3 * i] as number,
        type: args[3 * i + 1] as string,
        count: args[3 * i + 2] as number,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['user_id', 'type']).doUpdateSet((eb) => ({
        count: eb('statistic_totals.count', '+', eb.ref('excluded.count')),
      })),
    ),
);

const HOURLY_COLUMN_LIST = Object.values(HOURLY_COLUMNS);

const addToHour = compiledShape((db: Db, ...args: unknown[]) =>
  db
    .insertInto('statistic_hours')
    .values({
      user_id: args[0] as number,
      hour: args[1] as number,
      ...(Object.fromEntries(
        HOURLY_COLUMN_LIST.map((column, i) => [column, args[2 + i] as number]),
      ) as Record<HourlyColumn, number>),
    })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'hour'])
        .doUpdateSet((eb) =>
          Object.fromEntries(
            HOURLY_COLUMN_LIST.map((column) => [
              column,
              eb(`statistic_hours.${column}`, '+', eb.ref(`excluded.${column}`)),
            ]),
          ),
        ),
    ),
);

/**
 * Appends statistics events and updates their roll-ups (all-time totals, hourly counts).
 * Callers pass the transaction of the change being counted, so an event exists exactly when its
 * change does (docs/product.md, Statistics). The roll-ups are written last, so their row locks
 * are held for as short a time as possible. The three statements are compiled once per shape.
 */
export async function recordEvents(
  db: Db,
  userId: number,
  types: StatisticEvent[],
  at: number,
): Promise<void> {
  if (types.length === 0) return;
  await insertEvents(db, types.length, ...types.flatMap((type) => [userId, type, at]));

  const counts = new Map<StatisticEvent, number>();
  for (const type of types) counts.set(type, (counts.get(type) ?? 0) + 1);
  await addToTotals(
    db,
    counts.size,
    ...[...counts].flatMap(([type, count]) => [userId, type, count]),
  );

  if (!types.some(isHourly)) return;
  // Every column every time: one statement shape, adding 0 where an event type did not occur.
  const hourly = HOURLY_COLUMN_LIST.map((column) => {
    const type = (Object.keys(HOURLY_COLUMNS) as HourlyEvent[]).find(
      (t) => HOURLY_COLUMNS[t] === column,
    ) as HourlyEvent;
    return counts.get(type) ?? 0;
  });
  await addToHour(db, userId, Math.floor(at / HOUR_MS), ...hourly);
}
