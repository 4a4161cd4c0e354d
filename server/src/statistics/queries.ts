import {
  DAILY_EVENTS,
  SINCE_EVENTS,
  type DailyEvent,
  type SinceEvent,
  type StatisticEvent,
} from '@tally/contract';
import { sql } from 'kysely';
import { preparedQuery, type Placeholders } from '../db/prepared.js';
import type { StatisticHoursTable } from '../db/schema.js';

/**
 * The reads of the statistics screen, prepared because the benchmark measured them
 * (docs/decisions/042-prepared-queries.md, 091-data-access-modules.md); the service calls them
 * like functions; below them the prepared writes of every counted change, which
 * record-events.ts makes beside the rules that decide them.
 */

/** The events kept per hour (those the daily and since answers count), and their columns. */
export const HOURLY_COLUMNS = {
  todosCreated: 'todos_created',
  todosCompleted: 'todos_completed',
  groupsCreated: 'groups_created',
  logins: 'logins',
  todosDeleted: 'todos_deleted',
} as const satisfies Record<SinceEvent, keyof StatisticHoursTable>;

export type HourlyColumn = (typeof HOURLY_COLUMNS)[SinceEvent];

/** The user's running totals, one row per event type. */
export const totalsOfUser = preparedQuery((db, p: Placeholders<{ userId: number }>) =>
  db.selectFrom('statistic_totals').select(['type', 'count']).where('user_id', '=', p('userId')),
);

/** Sums of the hourly roll-up from an hour on. */
export const hourlySumsSince = preparedQuery(
  (db, p: Placeholders<{ userId: number; fromHour: number }>) =>
    db
      .selectFrom('statistic_hours')
      .select((eb) =>
        SINCE_EVENTS.map((type) => eb.fn.sum<number | null>(HOURLY_COLUMNS[type]).as(type)),
      )
      .where('user_id', '=', p('userId'))
      .where('hour', '>=', p('fromHour')),
);

/** Sums of the hourly roll-up per day: day i is the hours from fromHours[i] up to toHours[i]. */
export const hourlySumsPerDay = preparedQuery(
  (db, p: Placeholders<{ userId: number; fromHours: number[]; toHours: number[] }>) => {
    const toHours = p('toHours');
    const days = p('fromHours').map(
      (from, i) =>
        sql`(cast(${i} as integer), cast(${from} as integer), cast(${toHours[i]} as integer))`,
    );
    const sums = DAILY_EVENTS.map(
      (type) => sql`sum(h.${sql.ref(HOURLY_COLUMNS[type])}) as ${sql.ref(type)}`,
    );
    return sql<Record<DailyEvent | 'day', number | null>>`
      with days (day, from_hour, to_hour) as (values ${sql.join(days)})
      select days.day as day, ${sql.join(sums)}
      from days inner join statistic_hours h
        on h.user_id = ${p('userId')} and h.hour >= days.from_hour and h.hour < days.to_hour
      group by days.day`;
  },
);

// The three statements of every counted change (docs/decisions/042-prepared-queries.md).
export const insertEvents = preparedQuery(
  (db, p: Placeholders<{ userId: number; types: StatisticEvent[]; at: number }>) =>
    db
      .insertInto('statistic_events')
      .values(p('types').map((type) => ({ user_id: p('userId'), type, occurred_at: p('at') }))),
);

export const addToTotals = preparedQuery(
  (db, p: Placeholders<{ userId: number; types: StatisticEvent[]; counts: number[] }>) => {
    const counts = p('counts');
    return db
      .insertInto('statistic_totals')
      .values(
        p('types').map((type, i) => ({
          user_id: p('userId'),
          type,
          count: counts[i] as number,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'type']).doUpdateSet((eb) => ({
          count: eb('statistic_totals.count', '+', eb.ref('excluded.count')),
        })),
      );
  },
);

export const addToHour = preparedQuery(
  (db, p: Placeholders<{ userId: number; hour: number } & Record<SinceEvent, number>>) =>
    db
      .insertInto('statistic_hours')
      .values({
        user_id: p('userId'),
        hour: p('hour'),
        ...(Object.fromEntries(
          SINCE_EVENTS.map((type) => [HOURLY_COLUMNS[type], p(type)]),
        ) as Record<HourlyColumn, number>),
      })
      .onConflict((oc) =>
        oc.columns(['user_id', 'hour']).doUpdateSet((eb) =>
          Object.fromEntries(
            SINCE_EVENTS.map((type) => {
              const column = HOURLY_COLUMNS[type];
              return [column, eb(`statistic_hours.${column}`, '+', eb.ref(`excluded.${column}`))];
            }),
          ),
        ),
      ),
);

// Every completing update writes one (docs/decisions/049-per-request-costs.md).
export const insertCompletion = preparedQuery(
  (
    db,
    p: Placeholders<{
      userId: number;
      todoId: number;
      groupId: number | null;
      createdAt: number;
      at: number;
      dueDate: string | null;
      onTime: number | null;
    }>,
  ) =>
    db.insertInto('todo_completions').values({
      user_id: p('userId'),
      todo_id: p('todoId'),
      group_id: p('groupId'),
      created_at: p('createdAt'),
      completed_at: p('at'),
      due_date: p('dueDate'),
      on_time: p('onTime'),
    }),
);
