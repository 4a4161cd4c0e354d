import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * What a user chose about notifications besides channels
 * (docs/decisions/170-quiet-hours-and-the-daily-digest.md): quiet hours and the daily digest's
 * time, as minutes after midnight in the user's zone; `digest_sent_on`, the local date of the
 * last digest, is moved by a conditional UPDATE so that one process sends each day's digest.
 * `reminder_action_uses` records each reminder action link used (its token's id), so a link
 * works once (docs/decisions/171-reminder-actions-without-signing-in.md). `reminders.push_at`
 * holds a Web Push that waits for quiet hours to end.
 */
export function notificationPreferences(dialect: Dialect) {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('notification_settings')
        .addColumn('user_id', 'integer', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('quiet_start', 'integer')
        .addColumn('quiet_end', 'integer')
        .addColumn('digest_minute', 'integer')
        .addColumn('digest_sent_on', 'text')
        .execute();
      await db.schema
        .createTable('reminder_action_uses')
        .addColumn('token_id', 'text', (c) => c.primaryKey())
        .addColumn('used_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .execute();
      await db.schema.alterTable('reminders').addColumn('push_at', time).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('reminders').dropColumn('push_at').execute();
      await db.schema.dropTable('reminder_action_uses').execute();
      await db.schema.dropTable('notification_settings').execute();
    },
  };
}
