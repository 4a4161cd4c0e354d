import type { Kysely } from 'kysely';

/**
 * Imports (docs/decisions/051-import-and-export.md): each imported todo keeps a key of the row it
 * came from (a hash of the format and the source's id, or of the row's content when the source
 * has no ids), unique per user, so importing the same file again creates nothing new. Null for
 * todos made in Tally; several nulls never collide.
 */
export function importKeys() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('todos').addColumn('import_key', 'text').execute();
      await db.schema
        .createIndex('todos_user_import_key')
        .unique()
        .on('todos')
        .columns(['user_id', 'import_key'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('todos_user_import_key').execute();
      await db.schema.alterTable('todos').dropColumn('import_key').execute();
    },
  };
}
