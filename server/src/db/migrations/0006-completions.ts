import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * One row per completion (docs/decisions/047-insights.md), written in the transaction of the
 * change: what the insights need beyond the hourly counts — how long the todo took from creation,
 * whether it met its due date, and its group. The todo may be deleted later; its completion
 * stays, as its statistics event does. Todos completed before this migration get a row with
 * their last change as the completion time, the best that was recorded.
 */
export function completions(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('todo_completions')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('todo_id', 'integer', (c) => c.notNull())
        .addColumn('group_id', 'integer', (c) =>
          c.references('todo_groups.id').onDelete('set null'),
        )
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('completed_at', time, (c) => c.notNull())
        .addColumn('due_date', 'text')
        .addColumn('on_time', 'integer')
        .execute();
      // Covering: the insights read a range of one user's completions from the index alone.
      await db.schema
        .createIndex('todo_completions_user_time')
        .on('todo_completions')
        .columns(['user_id', 'completed_at', 'created_at', 'group_id', 'on_time'])
        .execute();
      await sql`insert into todo_completions (user_id, todo_id, group_id, created_at, completed_at)
        select user_id, id, group_id, created_at, updated_at from todos where completed = 1`.execute(
        db,
      );
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('todo_completions').execute();
    },
  };
}
