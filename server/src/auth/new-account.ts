import type { Db } from '../db/schema.js';

/** What a new account starts with, whoever makes it. */
export interface NewAccount {
  username: string;
  email: string;
  passwordHash: string | null;
  googleSubject?: string | null;
  oidc?: { issuer: string; subject: string } | null;
  /** When the address counts as verified (the identity provider vouched for it), else null. */
  emailVerifiedAt?: number | null;
  /** Set by the operator's `tally user add --one-time`: the first sign-in must change it. */
  passwordMustChange?: boolean;
}

/**
 * The users row of a new account, in the caller's transaction: sign-up, Google, single sign-on
 * (auth/service.ts) and the operator's `tally user add` (account/operator.ts) alike, so the
 * lower-case keys that make names and addresses unique are written one way. Returns its id.
 */
export async function insertAccount(trx: Db, account: NewAccount, now: number): Promise<number> {
  const { id } = await trx
    .insertInto('users')
    .values({
      username: account.username,
      username_lower: account.username.toLowerCase(),
      email: account.email,
      email_lower: account.email.toLowerCase(),
      password_hash: account.passwordHash,
      google_subject: account.googleSubject ?? null,
      oidc_issuer: account.oidc?.issuer ?? null,
      oidc_subject: account.oidc?.subject ?? null,
      created_at: now,
      email_verified_at: account.emailVerifiedAt ?? null,
      password_must_change: account.passwordMustChange ? 1 : 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The first account of a database is its operator: the admin page is theirs.
  await trx
    .updateTable('users')
    .set({ operator: 1 })
    .where('id', '=', id)
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('users as other').select('other.id').where('other.id', '!=', id)),
      ),
    )
    .execute();
  return id;
}
