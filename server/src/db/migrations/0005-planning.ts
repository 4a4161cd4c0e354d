import type { Kysely } from 'kysely';

/**
 * Planning (docs/product.md, Planning): a todo's due date (YYYY-MM-DD) and time (HH:mm) are the
 * user's own calendar day and clock time, kept as text so they mean the same day wherever the
 * user is (Today follows the zone the browser reports); `repeat` is the rule as JSON. The index
 * serves the Today, Upcoming and Overdue views.
 */
export function planning() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('todos').addColumn('due_date', 'text').execute();
      await db.schema.alterTable('todos').addColumn('due_time', 'text').execute();
      await db.schema.alterTable('todos').addColumn('repeat', 'text').execute();
      await db.schema
        .createIndex('todos_user_due')
        .on('todos')
        .columns(['user_id', 'due_date'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('todos_user_due').execute();
      await db.schema.alterTable('todos').dropColumn('repeat').execute();
      await db.schema.alterTable('todos').dropColumn('due_time').execute();
      await db.schema.alterTable('todos').dropColumn('due_date').execute();
    },
  };
}
