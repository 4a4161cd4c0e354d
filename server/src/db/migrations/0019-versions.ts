import type { Kysely } from 'kysely';

/**
 * A version on every todo and group (docs/decisions/113-versions-and-if-match.md): 1 when made,
 * one more with every write of the row from any path, answered as `version` and as the ETag a
 * write's `If-Match` names. Existing rows start at 1, as a new one does.
 */
export function versions() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of ['todos', 'todo_groups']) {
        await db.schema
          .alterTable(table)
          .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
          .execute();
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ['todos', 'todo_groups']) {
        await db.schema.alterTable(table).dropColumn('version').execute();
      }
    },
  };
}
