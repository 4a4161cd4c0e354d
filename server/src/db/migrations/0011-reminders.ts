import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Reminders (docs/decisions/064-reminders.md). `todos.remind_minutes_before` is what the user
 * chose (null: no reminder); `reminders` holds each such todo's next reminder as an instant
 * computed in TypeScript from its due date and time in the user's zone, so the poller of any
 * process finds it with one indexed range query; `sent_at` is set by the conditional UPDATE that
 * claims it, so it goes out once however many processes poll. `push_subscriptions` are the
 * browsers that turned reminders on, one row per push endpoint.
 */
export function reminders(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('todos').addColumn('remind_minutes_before', 'integer').execute();

      await db.schema
        .createTable('reminders')
        .addColumn('todo_id', 'integer', (c) =>
          c.primaryKey().references('todos.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('fire_at', time, (c) => c.notNull())
        .addColumn('due_date', 'text', (c) => c.notNull())
        .addColumn('due_time', 'text', (c) => c.notNull())
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('sent_at', time)
        .execute();
      await db.schema
        .createIndex('reminders_pending')
        .on('reminders')
        .columns(['sent_at', 'fire_at'])
        .execute();
      await db.schema
        .createIndex('reminders_user_sent')
        .on('reminders')
        .columns(['user_id', 'sent_at'])
        .execute();

      await db.schema
        .createTable('push_subscriptions')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('endpoint', 'text', (c) => c.notNull().unique())
        .addColumn('p256dh', 'text', (c) => c.notNull())
        .addColumn('auth', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('push_subscriptions_user')
        .on('push_subscriptions')
        .column('user_id')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('push_subscriptions').execute();
      await db.schema.dropTable('reminders').execute();
      await db.schema.alterTable('todos').dropColumn('remind_minutes_before').execute();
    },
  };
}
