import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * The tokens of e-mailed links (docs/decisions/046-accounts-and-mail.md): e-mail verification
 * and password reset. Only a SHA-256 of each token is kept; the token itself is only in the
 * e-mail. Each names the address it was sent to, so a link stops proving anything once the
 * account's address changes.
 */
export function emailTokens(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('email_tokens')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('email_lower', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('used_at', time)
        .execute();
      await db.schema
        .createIndex('email_tokens_user')
        .on('email_tokens')
        .columns(['user_id', 'purpose'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('email_tokens').execute();
    },
  };
}
