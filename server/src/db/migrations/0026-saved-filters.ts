import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Saved filters (docs/decisions/162-filters.md): a user's named filter queries, each with a
 * swatch colour and its place in the sidebar (`position`, lower first). The query is kept as
 * typed and read again on every use, so it follows the user's day and renamed groups.
 * `api_tokens.filter_id` limits a token to one saved filter's todos (read-only).
 */
export function savedFilters(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  const primary = dialect === 'postgres';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('saved_filters')
        .addColumn('id', id, (c) => (primary ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('color', 'text', (c) => c.notNull())
        .addColumn('query', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        // Its own calendar feed: the URL's secret, the zone of timed events, and the version and
        // time of the last feed served (as calendar_feeds keeps them for the account's feed).
        .addColumn('feed_secret', 'text', (c) => c.unique())
        .addColumn('feed_time_zone', 'text')
        .addColumn('feed_created_at', time)
        .addColumn('feed_content_hash', 'text')
        .addColumn('feed_changed_at', time)
        .execute();
      await db.schema
        .createIndex('saved_filters_user')
        .on('saved_filters')
        .columns(['user_id', 'position'])
        .execute();
      // An API token may show one saved filter's todos only; it goes with its filter.
      await db.schema
        .alterTable('api_tokens')
        .addColumn('filter_id', 'integer', (c) =>
          c.references('saved_filters.id').onDelete('cascade'),
        )
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('api_tokens').dropColumn('filter_id').execute();
      await db.schema.dropTable('saved_filters').execute();
    },
  };
}
