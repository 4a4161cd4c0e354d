import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/** The absolute lifetime sessions that existed before this migration get, from their start. */
const EXISTING_SESSION_DAYS = 30;

/**
 * Sessions of their own (docs/decisions/045-sessions.md): a session is one refresh-token family,
 * and access tokens name it (`sid`), so ending it ends its access tokens at once. A session has
 * an absolute end (`expires_at`, from sign-in), when it was last renewed and from what device.
 * Users gain `email_verified_at`: Google sign-in links to an existing account by e-mail only when
 * Tally has verified that address (accounts made through Google count as verified).
 */
export function sessions(dialect: Dialect) {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_used_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('ended_at', time)
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
      // Every refresh-token family so far becomes a session, ended where it was revoked.
      const lifetime = EXISTING_SESSION_DAYS * 24 * 60 * 60 * 1000;
      await sql`insert into sessions (id, user_id, created_at, last_used_at, expires_at, ended_at)
        select family_id, min(user_id), min(created_at), max(created_at),
          min(created_at) + ${sql.lit(lifetime)}, max(revoked_at)
        from refresh_tokens group by family_id`.execute(db);

      await db.schema.alterTable('users').addColumn('email_verified_at', time).execute();
      await sql`update users set email_verified_at = created_at
        where google_subject is not null`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
      await db.schema.dropTable('sessions').execute();
    },
  };
}
