import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * The import history (docs/decisions/137-import-history-and-undo.md).
 *
 * `imports`: one import that created something, with its counts, the name of its file and when
 * it was undone. `import_todos`: each todo it created, with the version the todo had when the
 * import finished writing it; a todo at another version was edited since, and undoing the import
 * leaves it alone. `import_groups`: each group it created. The links are tables of their own, not
 * columns of todos and todo_groups, so an import writes nothing more on those rows (no CalDAV
 * change, no new version) and the trash keeps its rows as they were.
 */
export function importHistory(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('imports')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('todos', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('groups', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('undone_at', time)
        .execute();
      await db.schema.createIndex('imports_user').on('imports').column('user_id').execute();
      await db.schema
        .createTable('import_todos')
        .addColumn('import_id', 'integer', (c) =>
          c.notNull().references('imports.id').onDelete('cascade'),
        )
        .addColumn('todo_id', 'integer', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('import_todos_pk', ['import_id', 'todo_id'])
        .execute();
      await db.schema
        .createTable('import_groups')
        .addColumn('import_id', 'integer', (c) =>
          c.notNull().references('imports.id').onDelete('cascade'),
        )
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('import_groups_pk', ['import_id', 'group_id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('import_groups').execute();
      await db.schema.dropTable('import_todos').execute();
      await db.schema.dropTable('imports').execute();
    },
  };
}
