import type { StatisticEvent } from '@tally/contract';
import type { Kysely, Transaction } from 'kysely';
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

/**
 * Appends statistics events and updates their roll-ups (all-time totals, hourly counts).
 * Callers pass the transaction of the change being counted, so an event exists exactly when its
 * change does (DECISIONS.md, filled gaps). The roll-ups are written last, so their row locks
 * are held for as short a time as possible.
 */
export async function recordEvents(
  db: Kysely<Database> | Transaction<Database>,
  userId: number,
  types: StatisticEvent[],
  at: number,
): Promise<void> {
  if (types.length === 0) return;
  await db
    .insertInto('statistic_events')
    .values(types.map((type) => ({ user_id: userId, type, occurred_at: at })))
    .execute();

  const counts = new Map<StatisticEvent, number>();
  for (const type of types) counts.set(type, (counts.get(type) ?? 0) + 1);
  await db
    .insertInto('statistic_totals')
    .values([...counts].map(([type, count]) => ({ user_id: userId, type, count })))
    .onConflict((oc) =>
      oc.columns(['user_id', 'type']).doUpdateSet((eb) => ({
        count: eb('statistic_totals.count', '+', eb.ref('excluded.count')),
      })),
    )
    .execute();

  if (!types.some(isHourly)) return;
  // Every column every time: one statement shape, adding 0 where an event type did not occur.
  const hourly: Record<HourlyColumn, number> = {
    todos_created: 0,
    todos_completed: 0,
    groups_created: 0,
    logins: 0,
    todos_deleted: 0,
  };
  for (const [type, count] of counts) if (isHourly(type)) hourly[HOURLY_COLUMNS[type]] = count;
  const columns = Object.keys(hourly) as HourlyColumn[];
  await db
    .insertInto('statistic_hours')
    .values({ user_id: userId, hour: Math.floor(at / HOUR_MS), ...hourly })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'hour'])
        .doUpdateSet((eb) =>
          Object.fromEntries(
            columns.map((column) => [
              column,
              eb(`statistic_hours.${column}`, '+', eb.ref(`excluded.${column}`)),
            ]),
          ),
        ),
    )
    .execute();
}
