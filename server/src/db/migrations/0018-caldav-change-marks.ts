import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * A bounded CalDAV change log (docs/decisions/092-caldav-change-log-pruning.md).
 *
 * caldav_change_marks: where the change log (caldav_changes, migration 0017) stood at a time,
 * one row per run of the daily pruning job: `at` (epoch ms) and `last_id`, the log's highest id
 * then. The log's rows carry no time (its triggers write the todo, group and name only), so
 * these marks tell which changes are older than the kept history: every change up to the
 * `last_id` of the newest mark at least that old, and no sync token below it is answered.
 */
export function caldavChangeMarks(dialect: Dialect) {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('caldav_change_marks')
        .addColumn('at', time, (c) => c.primaryKey())
        .addColumn('last_id', 'integer', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('caldav_change_marks').execute();
    },
  };
}
