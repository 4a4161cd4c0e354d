import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Idempotency keys (docs/decisions/060-idempotency-keys.md): a write sent with an
 * Idempotency-Key header claims (user, key) by inserting its row first, so two processes cannot
 * both run it; the answer (status and body) is stored for 24 hours and replayed to a retry.
 * `status` is null while the first request is still running.
 */
export function idempotencyKeys(dialect: Dialect) {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
        .execute();
      // The sweep of rows older than 24 hours.
      await db.schema
        .createIndex('idempotency_keys_created')
        .on('idempotency_keys')
        .column('created_at')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('idempotency_keys').execute();
    },
  };
}
