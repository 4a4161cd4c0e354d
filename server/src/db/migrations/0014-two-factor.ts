import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Two-factor codes (docs/decisions/081-two-factor-codes.md), all in the database so any number of
 * processes behind PostgreSQL agree:
 * - `two_factor`: one row per account that set up an authenticator app. `secret` is the TOTP
 *   secret encrypted with a key derived from the server's secret; `enabled_at` is null while the
 *   setup waits for its first code; `last_step` is the time step of the last code accepted, so no
 *   code works twice; `failures`/`failures_since` count wrong codes per account (the limit).
 * - `recovery_codes`: each one-time code's argon2id hash; `used_at` once it served.
 * - `mfa_challenges`: the second step of a sign-in, keyed by the hash of its mfaToken and bound to
 *   the browser by the hash of a cookie; it lives 5 minutes and serves one session.
 */
export function twoFactor(dialect: Dialect) {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('two_factor')
        .addColumn('user_id', 'integer', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('enabled_at', time)
        .addColumn('last_step', time)
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failures_since', time)
        .execute();
      await db.schema
        .createTable('recovery_codes')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('used_at', time)
        .execute();
      await db.schema
        .createIndex('recovery_codes_user')
        .on('recovery_codes')
        .columns(['user_id', 'code_hash'])
        .execute();
      await db.schema
        .createTable('mfa_challenges')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('browser_hash', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('mfa_challenges_expiry')
        .on('mfa_challenges')
        .column('expires_at')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('mfa_challenges').execute();
      await db.schema.dropTable('recovery_codes').execute();
      await db.schema.dropTable('two_factor').execute();
    },
  };
}
