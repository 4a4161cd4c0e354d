import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * E-mail to task (docs/decisions/140-email-to-task-over-imap.md).
 *
 * `inbox_addresses`: an account's private address, todo+{secret}@{domain}. The secret is kept as
 * it is, since Settings shows the address again; renewing replaces it, so mail to the old one
 * finds no account. `only_from_my_addresses` (1 by default) takes mail only from the account's
 * verified address.
 *
 * `inbox_messages`: every message the fetcher took, by its mailbox's UIDVALIDITY and UID, written
 * in the transaction that makes its todo: a fetcher that stops between the todo and moving the
 * message finds it again after a restart and makes no second todo.
 */
export function inbox(dialect: Dialect) {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('inbox_addresses')
        .addColumn('user_id', 'integer', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('secret', 'text', (c) => c.notNull().unique())
        .addColumn('only_from_my_addresses', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('inbox_messages')
        .addColumn('message_key', 'text', (c) => c.primaryKey())
        .addColumn('todo_id', 'integer')
        .addColumn('taken_at', time, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('inbox_messages').execute();
      await db.schema.dropTable('inbox_addresses').execute();
    },
  };
}
