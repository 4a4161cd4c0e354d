import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/** Users, groups, todos, refresh tokens and the statistics event log. */
export function initial(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  const time = dialect === 'postgres' ? 'bigint' : 'integer';

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('users')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('username_lower', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('email_lower', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text')
        .addColumn('google_subject', 'text', (c) => c.unique())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('todo_groups')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_lower', 'text', (c) => c.notNull())
        .addColumn('color', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addUniqueConstraint('todo_groups_user_name_unique', ['user_id', 'name_lower'])
        .execute();
      await db.schema
        .createIndex('todo_groups_user_created')
        .on('todo_groups')
        .columns(['user_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('todos')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('group_id', 'integer', (c) =>
          c.references('todo_groups.id').onDelete('set null'),
        )
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('todos_user_created')
        .on('todos')
        .columns(['user_id', 'created_at', 'id'])
        .execute();
      // Serves ON DELETE SET NULL when a group goes.
      await db.schema.createIndex('todos_group').on('todos').column('group_id').execute();

      await db.schema
        .createTable('refresh_tokens')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('family_id', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('used_at', time)
        .addColumn('revoked_at', time)
        .execute();
      await db.schema
        .createIndex('refresh_tokens_family')
        .on('refresh_tokens')
        .column('family_id')
        .execute();
      await db.schema
        .createIndex('refresh_tokens_user')
        .on('refresh_tokens')
        .column('user_id')
        .execute();

      await db.schema
        .createTable('statistic_events')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('occurred_at', time, (c) => c.notNull())
        .execute();
      // Covers the daily and "since" queries (a time window) and the totals (per type).
      await db.schema
        .createIndex('statistic_events_user_time')
        .on('statistic_events')
        .columns(['user_id', 'occurred_at', 'type'])
        .execute();
      await db.schema
        .createIndex('statistic_events_user_type')
        .on('statistic_events')
        .columns(['user_id', 'type'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ['statistic_events', 'refresh_tokens', 'todos', 'todo_groups', 'users']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
