import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * The richer todo: tags, priority, subtasks and order
 * (docs/decisions/083-tags-subtasks-and-order.md).
 *
 * todos gain `priority` (0 none … 3 high), `parent_id` (a subtask's parent; no foreign key, as
 * trash moves rows out and back in one subtree at a time and a restored child whose parent stays
 * in the trash goes to the top level), `start_date` (hidden until then) and `position` (the
 * manual order among siblings, a float so a move writes one row: the midpoint of its new
 * neighbours). Existing todos get -created_at, so the manual order starts as SPEC's newest first,
 * and a new todo takes -now the same way, with no extra read.
 *
 * tags: a user's tags, unique by lower-case name (the first spelling wins), with an optional
 * colour; todo_tags links them to todos and goes with either.
 *
 * trashed_todos.parent_id: the parent a trashed todo had, so restoring a todo finds its
 * subtree in the trash without reading every trashed row's JSON.
 *
 * users.todo_sorts: the sort the user chose per view (JSON), kept for every device.
 */
export function todoDetails(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  const float = dialect === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('todos')
        .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('todos').addColumn('parent_id', 'integer').execute();
      await db.schema.alterTable('todos').addColumn('start_date', 'text').execute();
      await db.schema
        .alterTable('todos')
        .addColumn('position', float, (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update todos set position = -created_at`.execute(db);
      await db.schema.createIndex('todos_parent').on('todos').column('parent_id').execute();

      await db.schema
        .createTable('tags')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_lower', 'text', (c) => c.notNull())
        .addColumn('color', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addUniqueConstraint('tags_user_name_unique', ['user_id', 'name_lower'])
        .execute();
      await db.schema
        .createTable('todo_tags')
        .addColumn('todo_id', 'integer', (c) =>
          c.notNull().references('todos.id').onDelete('cascade'),
        )
        .addColumn('tag_id', 'integer', (c) =>
          c.notNull().references('tags.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('todo_tags_pk', ['todo_id', 'tag_id'])
        .execute();
      await db.schema.createIndex('todo_tags_tag').on('todo_tags').column('tag_id').execute();

      await db.schema.alterTable('trashed_todos').addColumn('parent_id', 'integer').execute();
      await db.schema.alterTable('users').addColumn('todo_sorts', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').dropColumn('todo_sorts').execute();
      await db.schema.alterTable('trashed_todos').dropColumn('parent_id').execute();
      await db.schema.dropTable('todo_tags').execute();
      await db.schema.dropTable('tags').execute();
      await db.schema.dropIndex('todos_parent').execute();
      for (const column of ['position', 'start_date', 'parent_id', 'priority']) {
        await db.schema.alterTable('todos').dropColumn(column).execute();
      }
    },
  };
}
