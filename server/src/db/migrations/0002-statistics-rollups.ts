import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Roll-ups of the statistics event log, kept in the same transaction as each event
 * (docs/decisions/030-statistics-rollups.md):
 * - statistic_totals: one row per user and event type, the all-time count;
 * - statistic_hours: one row per user and UTC hour, the counts of the event types the daily and
 *   "since" answers show. Calendar days in any zone whose offset is a whole number of hours
 *   are whole hours, so a day is the sum of at most 25 rows, however many events it holds.
 * Both are filled from the events already recorded.
 */
export function statisticsRollups(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('statistic_totals')
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('statistic_totals_pk', ['user_id', 'type'])
        .execute();

      let hours = db.schema
        .createTable('statistic_hours')
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('hour', 'integer', (c) => c.notNull())
        .addColumn('todos_created', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('todos_completed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('groups_created', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('logins', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('todos_deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('statistic_hours_pk', ['user_id', 'hour']);
      // SQLite: store the rows in primary-key order, so a user's hours are read in one range.
      if (dialect === 'sqlite') hours = hours.modifyEnd(sql`without rowid`);
      await hours.execute();

      await sql`insert into statistic_totals (user_id, type, count)
        select user_id, type, count(*) from statistic_events group by user_id, type`.execute(db);
      const count = (type: string) => sql`sum(case when type = ${sql.lit(type)} then 1 else 0 end)`;
      await sql`insert into statistic_hours
          (user_id, hour, todos_created, todos_completed, groups_created, logins, todos_deleted)
        select user_id, occurred_at / 3600000, ${count('todosCreated')}, ${count('todosCompleted')},
          ${count('groupsCreated')}, ${count('logins')}, ${count('todosDeleted')}
        from statistic_events
        where type in ('todosCreated', 'todosCompleted', 'groupsCreated', 'logins', 'todosDeleted')
        group by user_id, occurred_at / 3600000`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('statistic_hours').execute();
      await db.schema.dropTable('statistic_totals').execute();
    },
  };
}
