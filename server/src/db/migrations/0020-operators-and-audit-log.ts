import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * The admin page (docs/decisions/131-operator-and-admin-page.md):
 * - `users.operator`: 1 for an account that may use the admin page. The first account of a
 *   database is one; an existing database's oldest account becomes one here, so an upgraded
 *   server has an operator as a new one does. The CLI grants and takes it back.
 * - `users.disabled_at`: when an operator disabled the account; null while it may sign in.
 * - `audit_log`: every admin action, who did it (the name stays when the account goes) and to
 *   whom, newest read first.
 */
export function operatorsAndAuditLog(dialect: Dialect) {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('operator', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('users').addColumn('disabled_at', time).execute();
      await sql`update users set operator = 1 where id = (select min(id) from users)`.execute(db);
      await db.schema
        .createTable('audit_log')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('at', time, (c) => c.notNull())
        .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_name', 'text')
        .execute();
      await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('audit_log').execute();
      await db.schema.alterTable('users').dropColumn('disabled_at').execute();
      await db.schema.alterTable('users').dropColumn('operator').execute();
    },
  };
}
