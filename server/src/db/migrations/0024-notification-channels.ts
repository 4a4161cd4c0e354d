import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Notification channels (docs/decisions/143-notification-channels.md). `notification_channels`
 * holds each user's ntfy, Gotify, Pushover and webhook targets; `secret` is the token or signing
 * secret the request needs, so it is kept as written and never answered back. Each message to a
 * channel is a row of `notification_deliveries`, claimed by a conditional UPDATE of
 * `lease_until` so that one process sends it, and retried from `next_attempt_at` on failure.
 */
export function notificationChannels(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  const primary = dialect === 'postgres';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('notification_channels')
        .addColumn('id', id, (c) => (primary ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('topic', 'text')
        .addColumn('user_key', 'text')
        .addColumn('secret', 'text')
        .addColumn('reminders', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('failing_since', time)
        .addColumn('disabled_reason', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notification_channels_user')
        .on('notification_channels')
        .column('user_id')
        .execute();

      await db.schema
        .createTable('notification_deliveries')
        .addColumn('id', id, (c) => (primary ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('channel_id', 'integer', (c) =>
          c.notNull().references('notification_channels.id').onDelete('cascade'),
        )
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', time)
        .addColumn('lease_until', time, (c) => c.notNull().defaultTo(0))
        .addColumn('last_attempt_at', time)
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('expires_at', time)
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notification_deliveries_due')
        .on('notification_deliveries')
        .columns(['state', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('notification_deliveries_channel')
        .on('notification_deliveries')
        .columns(['channel_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('notification_deliveries').execute();
      await db.schema.dropTable('notification_channels').execute();
    },
  };
}
