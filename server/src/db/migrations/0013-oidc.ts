import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Generic OpenID Connect sign-in (docs/decisions/080-openid-connect.md).
 * `users.oidc_issuer` and `users.oidc_subject`: the provider's identity of the account, unique
 * together (a subject is only unique within its issuer). `oidc_flows`: one row per sign-in,
 * link or re-authentication started in a browser, keyed by the SHA-256 of the random id in that
 * browser's cookie; it holds the state, nonce and PKCE verifier until the callback spends it, so
 * any process behind the same database can finish the flow. `sessions.oidc_id_token`: the ID
 * token of an OIDC sign-in, the `id_token_hint` of RP-initiated logout.
 */
export function oidc(dialect: Dialect) {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').addColumn('oidc_issuer', 'text').execute();
      await db.schema.alterTable('users').addColumn('oidc_subject', 'text').execute();
      await db.schema
        .createIndex('users_oidc_identity')
        .unique()
        .on('users')
        .columns(['oidc_issuer', 'oidc_subject'])
        .execute();
      await db.schema.alterTable('sessions').addColumn('oidc_id_token', 'text').execute();
      await db.schema
        .createTable('oidc_flows')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('session_id', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('return_to', 'text', (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('oidc_flows_expires_at')
        .on('oidc_flows')
        .column('expires_at')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('oidc_flows').execute();
      await db.schema.alterTable('sessions').dropColumn('oidc_id_token').execute();
      await db.schema.dropIndex('users_oidc_identity').execute();
      await db.schema.alterTable('users').dropColumn('oidc_subject').execute();
      await db.schema.alterTable('users').dropColumn('oidc_issuer').execute();
    },
  };
}
