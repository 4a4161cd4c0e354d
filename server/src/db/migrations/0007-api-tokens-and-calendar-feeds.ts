import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Personal API tokens and the private calendar feed
 * (docs/decisions/050-api-tokens-and-calendar-feed.md).
 *
 * api_tokens keeps only a SHA-256 of each token, looked up by that hash on every request made
 * with one; revoking deletes the row. calendar_feeds holds one feed per account: its secret (a
 * random id, kept as it is so Settings can show the URL again), the time zone of its timed
 * events, and a hash of the last feed served with the time it changed (Last-Modified).
 */
export function apiTokensAndCalendarFeeds(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('api_tokens')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time)
        .addColumn('last_used_at', time)
        .execute();
      await db.schema.createIndex('api_tokens_user').on('api_tokens').column('user_id').execute();

      await db.schema
        .createTable('calendar_feeds')
        .addColumn('user_id', 'integer', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('secret', 'text', (c) => c.notNull().unique())
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('content_hash', 'text')
        .addColumn('content_changed_at', time)
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('calendar_feeds').execute();
      await db.schema.dropTable('api_tokens').execute();
    },
  };
}
