import { sql, type Kysely } from 'kysely';
import { searchText } from '../../shared/search-text.js';
import type { Dialect } from '../connection.js';

/**
 * Search, trash and background jobs (docs/decisions/052-search-and-trash.md).
 *
 * todos.search_text holds the words of a todo's title and description as search compares them
 * (lower case, accents dropped: shared/search-text.ts), written by the server with the todo. It
 * is indexed by an FTS5 table on SQLite (kept in step by triggers) and by a GIN index of its
 * 'simple' tsvector on PostgreSQL.
 *
 * trashed_todos holds deleted todos for 30 days: the todo's row as JSON (so a column added to
 * todos later comes back on restore without a change here), under the todo's own id (ids are
 * never reused on either dialect), and when it was deleted.
 *
 * job_leases lets one of several server processes run a periodic job (the trash purge): a
 * process takes the lease with a conditional update, runs the job, and records when it ran.
 */
export function searchAndTrash(dialect: Dialect) {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('todos')
        .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      const rows = await sql<{ id: number; title: string; description: string | null }>`
        select id, title, description from todos`.execute(db);
      for (const row of rows.rows) {
        await sql`update todos set search_text = ${searchText(row.title, row.description)}
          where id = ${row.id}`.execute(db);
      }
      if (dialect === 'postgres') {
        await sql`create index todos_search on todos
          using gin (to_tsvector('simple', search_text))`.execute(db);
      } else {
        // External content: the words live in todos; the index only points at its rows.
        await sql`create virtual table todos_fts using fts5(
          search_text, content='todos', content_rowid='id',
          tokenize='unicode61 remove_diacritics 0')`.execute(db);
        await sql`create trigger todos_fts_insert after insert on todos begin
          insert into todos_fts (rowid, search_text) values (new.id, new.search_text);
        end`.execute(db);
        await sql`create trigger todos_fts_delete after delete on todos begin
          insert into todos_fts (todos_fts, rowid, search_text)
            values ('delete', old.id, old.search_text);
        end`.execute(db);
        await sql`create trigger todos_fts_update after update of search_text on todos begin
          insert into todos_fts (todos_fts, rowid, search_text)
            values ('delete', old.id, old.search_text);
          insert into todos_fts (rowid, search_text) values (new.id, new.search_text);
        end`.execute(db);
        await sql`insert into todos_fts (todos_fts) values ('rebuild')`.execute(db);
      }

      await db.schema
        .createTable('trashed_todos')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('trashed_at', time, (c) => c.notNull())
        .addColumn('todo', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('trashed_todos_user_time')
        .on('trashed_todos')
        .columns(['user_id', 'trashed_at'])
        .execute();
      await db.schema
        .createIndex('trashed_todos_time')
        .on('trashed_todos')
        .column('trashed_at')
        .execute();

      await db.schema
        .createTable('job_leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text')
        .addColumn('lease_until', time, (c) => c.notNull().defaultTo(0))
        .addColumn('last_run_at', time)
        .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('job_leases').execute();
      await db.schema.dropTable('trashed_todos').execute();
      if (dialect === 'postgres') {
        await sql`drop index todos_search`.execute(db);
      } else {
        for (const trigger of ['todos_fts_insert', 'todos_fts_delete', 'todos_fts_update']) {
          await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
        }
        await sql`drop table todos_fts`.execute(db);
      }
      await db.schema.alterTable('todos').dropColumn('search_text').execute();
    },
  };
}
