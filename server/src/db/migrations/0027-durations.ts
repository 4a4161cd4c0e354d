import type { Kysely } from 'kysely';

/**
 * A todo's duration (docs/decisions/166-todo-durations.md): how many minutes it takes, shown as a
 * block from its due time in the calendar's week view; null for none.
 */
export function durations() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('todos').addColumn('duration_minutes', 'integer').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('todos').dropColumn('duration_minutes').execute();
    },
  };
}
