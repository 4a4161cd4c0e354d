import type { Account } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { conflict } from '../shared/errors.js';
import { isUniqueViolation } from '../shared/sql-errors.js';
import type { GoogleCheck, IdentityProof } from './identity-proof.js';
import { accountRow, toAccount } from './rows.js';

export interface IdentitiesDeps {
  db: Kysely<Database>;
  clock: Clock;
  proof: IdentityProof;
}

/** An OpenID Connect identity as the provider vouched for it at the end of a link flow. */
export interface OidcLinkIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

/** Why an OpenID Connect identity could not be linked; the flow answers with it. */
export type OidcLinkRefusal = 'already_linked' | 'linked_elsewhere';

/**
 * The provider identities that sign an account in besides its password: Google and one OpenID
 * Connect provider. Linking one proves the account's address only when the provider's verified
 * address is the account's own; unlinking never leaves an account nobody can sign in to.
 */
export function createIdentities({ db, clock, proof }: IdentitiesDeps) {
  async function linkGoogle(
    userId: number,
    token: string,
    verifyGoogle: GoogleCheck,
  ): Promise<Account | null> {
    const identity = await proof.googleIdentity(verifyGoogle, token, 'token');
    const row = await accountRow(db, userId);
    if (!row) return null;
    if (row.google_subject !== null && row.google_subject !== identity.subject) {
      throw conflict('Your account is already linked to another Google account - unlink it first');
    }
    const otherAccount = conflict('That Google account is already linked to another Tally account');
    const other = await db
      .selectFrom('users')
      .select('id')
      .where('google_subject', '=', identity.subject)
      .where('id', '<>', userId)
      .executeTakeFirst();
    if (other) throw otherAccount;
    // Google vouches for its own verified address; it proves the account's only if they match.
    const verified =
      row.email_verified_at ??
      (identity.email.trim().toLowerCase() === row.email_lower ? clock() : null);
    try {
      await db
        .updateTable('users')
        .set({ google_subject: identity.subject, email_verified_at: verified })
        .where('id', '=', userId)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw otherAccount;
      throw error;
    }
    return toAccount({ ...row, google_subject: identity.subject, email_verified_at: verified });
  }

  /** Null when the account is gone; false when nothing was linked. */
  async function unlinkGoogle(userId: number): Promise<boolean | null> {
    const row = await accountRow(db, userId);
    if (!row) return null;
    // Signing in stays possible with a password or a linked OpenID Connect account.
    if (row.password_hash === null && row.oidc_subject === null) {
      throw conflict('Set a password before unlinking Google - without one you could not sign in');
    }
    if (row.google_subject === null) return false;
    await db.updateTable('users').set({ google_subject: null }).where('id', '=', userId).execute();
    return true;
  }

  return { linkGoogle, unlinkGoogle };
}

/**
 * Links the identity a link flow came back with to the account that started it; null when
 * linked, else why not. The caller has checked that the flow's session still lasts.
 */
export async function linkOidc(
  db: Kysely<Database>,
  now: number,
  userId: number,
  identity: OidcLinkIdentity,
): Promise<OidcLinkRefusal | null> {
  const account = await db
    .selectFrom('users')
    .select(['oidc_issuer', 'oidc_subject', 'email_lower', 'email_verified_at'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const same = account.oidc_issuer === identity.issuer && account.oidc_subject === identity.subject;
  if (account.oidc_subject !== null && !same) return 'already_linked';
  const other = await db
    .selectFrom('users')
    .select('id')
    .where('oidc_issuer', '=', identity.issuer)
    .where('oidc_subject', '=', identity.subject)
    .where('id', '<>', userId)
    .executeTakeFirst();
  if (other) return 'linked_elsewhere';
  // The provider vouches for its own verified address; it proves the account's only if they
  // match, as for Google.
  const verified =
    account.email_verified_at ??
    (identity.emailVerified && identity.email?.toLowerCase() === account.email_lower ? now : null);
  try {
    await db
      .updateTable('users')
      .set({
        oidc_issuer: identity.issuer,
        oidc_subject: identity.subject,
        email_verified_at: verified,
      })
      .where('id', '=', userId)
      .execute();
  } catch (error) {
    // The unique index: another account linked the identity meanwhile.
    if (isUniqueViolation(error)) return 'linked_elsewhere';
    throw error;
  }
  return null;
}

/** Null when the account is gone; false when nothing was linked. */
export async function unlinkOidc(db: Kysely<Database>, userId: number): Promise<boolean | null> {
  const row = await accountRow(db, userId);
  if (!row) return null;
  if (row.password_hash === null && row.google_subject === null) {
    throw conflict(
      'Set a password (with a password-reset link) before unlinking - without one you could not sign in',
    );
  }
  if (row.oidc_subject === null) return false;
  await db
    .updateTable('users')
    .set({ oidc_issuer: null, oidc_subject: null })
    .where('id', '=', userId)
    .execute();
  return true;
}
