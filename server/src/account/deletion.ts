import type { DeleteAccountBody } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { GoogleCheck, IdentityProof } from './identity-proof.js';
import { accountRow } from './rows.js';

/** The tables that hold a user's rows, children first; the users row goes last. */
const OWNED_TABLES = [
  'api_tokens',
  'calendar_feeds',
  'inbox_addresses',
  'email_tokens',
  'passkeys',
  'webauthn_challenges',
  'oidc_flows',
  'refresh_tokens',
  'sessions',
  'statistic_events',
  'statistic_totals',
  'statistic_hours',
  'todo_completions',
  'todos',
  'todo_groups',
  // Last: deleting todos logs their deletion here (migration 0017's triggers).
  'caldav_changes',
] as const satisfies readonly (keyof Database)[];

/** Deletes the account and every row it owns, in one transaction. */
export async function deleteAccountRows(db: Kysely<Database>, userId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of OWNED_TABLES) {
      await trx.deleteFrom(table).where('user_id', '=', userId).execute();
    }
    await trx.deleteFrom('users').where('id', '=', userId).execute();
  });
}

/**
 * Deletes the account and every row it owns in one transaction, after checking the proof.
 * False when the account is gone already.
 */
export async function deleteAccount(
  db: Kysely<Database>,
  proof: IdentityProof,
  userId: number,
  body: DeleteAccountBody,
  verifyGoogle: GoogleCheck,
  sessionId: string | null,
): Promise<boolean> {
  const row = await accountRow(db, userId);
  if (!row) return false;
  if (row.password_hash === null && row.google_subject === null && row.oidc_subject !== null) {
    // Only the OpenID provider signs this account in: its proof is a fresh sign-in there
    // (POST /api/account/reauthenticate/oidc), noted on the session, as for recentAuth routes.
    await proof.requireRecentSession(userId, sessionId);
  } else {
    await proof.checkProof(userId, row, body, verifyGoogle, {
      password: 'password is required to delete the account',
      googleToken: 'googleToken is required to delete an account without a password',
    });
  }
  await deleteAccountRows(db, userId);
  return true;
}
