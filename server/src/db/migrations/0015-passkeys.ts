import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Passkeys (docs/decisions/082-passkeys.md).
 *
 * `passkeys`: one WebAuthn credential of an account. The credential id is unique across every
 * account, so one authenticator's key can never belong to two of them; the public key is kept as
 * the COSE key the authenticator gave (base64url). `user_handle` is the WebAuthn user.id handed to
 * the authenticator: random, so it says nothing about the account, and checked on sign-in.
 *
 * `webauthn_challenges`: the challenges handed to browsers, in the database rather than in memory
 * because several processes may serve one PostgreSQL database. Each is bound to the browser that
 * asked (the SHA-256 of its httpOnly cookie), to a purpose and, for adding a passkey or proving
 * identity again, to the account; it is deleted when used and expires after 5 minutes.
 */
export function passkeys(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('passkeys')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', time, (c) => c.notNull())
        .addColumn('transports', 'text')
        .addColumn('user_handle', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_used_at', time)
        .execute();
      await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();

      await db.schema
        .createTable('webauthn_challenges')
        .addColumn('challenge', 'text', (c) => c.primaryKey())
        .addColumn('binding_hash', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('user_handle', 'text')
        .addColumn('expires_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webauthn_challenges_expiry')
        .on('webauthn_challenges')
        .column('expires_at')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('webauthn_challenges').execute();
      await db.schema.dropTable('passkeys').execute();
    },
  };
}
