import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Proofs kept with a session (docs/decisions/071-recent-authentication.md).
 * `sessions.reauthenticated_at`: the last time this session proved the password (or a fresh
 * Google sign-in); a refresh never moves it, so a stolen access token cannot renew it. Null for
 * sessions started before this migration: they prove it again before a sensitive change.
 * `users.password_must_change`: the operator's generated password is one-time; the sessions it
 * starts carry `password_change_required` so the per-request session lookup sees it for free.
 * `users.password_reset_at`: the last password reset by e-mail link, which Settings shows with
 * what it ended (sessions, API tokens, the calendar feed).
 */
export function sessionProofs(dialect: Dialect) {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('sessions').addColumn('reauthenticated_at', time).execute();
      await db.schema
        .alterTable('sessions')
        .addColumn('password_change_required', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('users')
        .addColumn('password_must_change', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('users').addColumn('password_reset_at', time).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').dropColumn('password_reset_at').execute();
      await db.schema.alterTable('users').dropColumn('password_must_change').execute();
      await db.schema.alterTable('sessions').dropColumn('password_change_required').execute();
      await db.schema.alterTable('sessions').dropColumn('reauthenticated_at').execute();
    },
  };
}
