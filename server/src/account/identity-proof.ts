import {
  type DeleteAccountBody,
  RECENT_AUTH_MINUTES,
  type ReauthenticateBody,
} from '@tally/contract';
import type { Kysely } from 'kysely';
import type { GoogleIdentity } from '../auth/google-id-token.js';
import { verifyPassword } from '../auth/passwords.js';
import type { Database } from '../db/schema.js';
import type { Counters } from '../plugins/counters.js';
import type { Clock } from '../shared/clock.js';
import { AppError, badRequest, serviceUnavailable } from '../shared/errors.js';
import { type AccountRow, accountRow, MINUTE, tooMany } from './rows.js';

/** Wrong passwords per account per 15 minutes on these calls before they answer 429. */
const PASSWORD_CHECKS = 10;

const GOOGLE_OFF = 'Sign-in with Google is not configured on this server';

/**
 * Checks a Google ID token as Continue with Google does, for the browser that sent it; null when
 * Google is not configured.
 */
export type GoogleCheck = ((token: string) => Promise<GoogleIdentity>) | null;

export interface IdentityProofDeps {
  db: Kysely<Database>;
  clock: Clock;
  counters: Counters;
}

/**
 * How the signed-in user proves it is them before a change that matters: the password, a fresh
 * Google credential, or a recent proof noted on the session (docs/decisions/071-recent-authentication.md).
 */
export function createIdentityProof({ db, clock, counters }: IdentityProofDeps) {
  /**
   * Checks the account's password for a change of its settings. Counted before checking, so a
   * stolen access token cannot be used to guess the password at speed. A wrong password is a
   * 400 naming the field, not a 401: the token is fine, and the browser treats a 401 as an
   * ended session.
   */
  async function checkPassword(
    userId: number,
    hash: string,
    password: string,
    field: string,
  ): Promise<void> {
    const key = `account-password:${userId}`;
    const tries = await counters.hit(key, 15 * MINUTE);
    if (tries.count > PASSWORD_CHECKS) throw tooMany('Too many wrong passwords', tries.ttlMs);
    if (!(await verifyPassword(hash, password))) throw badRequest(`${field} is not correct`);
    await counters.reset(key);
  }

  /** A Google credential for an account call; a bad one is a 400 naming the field. */
  async function googleIdentity(
    verifyGoogle: GoogleCheck,
    token: string,
    field: string,
  ): Promise<GoogleIdentity> {
    if (!verifyGoogle) throw serviceUnavailable(GOOGLE_OFF);
    try {
      return await verifyGoogle(token);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 401) {
        throw badRequest(
          `${field} was refused: ${error.message.replace(/^Google sign-in failed: /, '')}`,
        );
      }
      throw error;
    }
  }

  /**
   * Checks a proof of identity: the password, or for an account without one a fresh Google
   * credential of its own Google account. Each problem is a 400 naming the field.
   */
  async function checkProof(
    userId: number,
    row: AccountRow,
    proof: DeleteAccountBody | ReauthenticateBody,
    verifyGoogle: GoogleCheck,
    missing: { password: string; googleToken: string },
  ): Promise<void> {
    if (proof.password !== undefined && proof.googleToken !== undefined) {
      throw badRequest('Send either password or googleToken, not both');
    }
    if (row.password_hash !== null) {
      if (proof.password === undefined) throw badRequest(missing.password);
      await checkPassword(userId, row.password_hash, proof.password, 'password');
    } else {
      if (proof.googleToken === undefined) {
        throw badRequest(missing.googleToken);
      }
      const identity = await googleIdentity(verifyGoogle, proof.googleToken, 'googleToken');
      if (identity.subject !== row.google_subject) {
        throw badRequest('googleToken is not from the Google account linked to this account');
      }
    }
  }

  /** 403 reauthentication_required unless the session proved itself in RECENT_AUTH_MINUTES. */
  async function requireRecentSession(userId: number, sessionId: string | null): Promise<void> {
    const session =
      sessionId === null
        ? undefined
        : await db
            .selectFrom('sessions')
            .select('reauthenticated_at')
            .where('id', '=', sessionId)
            .where('user_id', '=', userId)
            .executeTakeFirst();
    const at = session?.reauthenticated_at ?? null;
    if (at === null || clock() - at > RECENT_AUTH_MINUTES * MINUTE) {
      throw new AppError(
        403,
        `Confirm it's you: sign in with your single sign-on provider again (the last ${RECENT_AUTH_MINUTES} minutes count)`,
        {},
        'reauthentication_required',
      );
    }
  }

  /**
   * Notes a fresh proof on the caller's session: sensitive changes are allowed for
   * RECENT_AUTH_MINUTES. False when the account is gone.
   */
  async function reauthenticate(
    user: { id: number; sessionId: string },
    proof: ReauthenticateBody,
    verifyGoogle: GoogleCheck,
  ): Promise<boolean> {
    const row = await accountRow(db, user.id);
    if (!row) return false;
    await checkProof(user.id, row, proof, verifyGoogle, {
      password: 'password is required to confirm it is you',
      googleToken: 'googleToken is required: the account has no password',
    });
    await db
      .updateTable('sessions')
      .set({ reauthenticated_at: clock() })
      .where('id', '=', user.sessionId)
      .where('user_id', '=', user.id)
      .execute();
    return true;
  }

  return { checkPassword, googleIdentity, checkProof, requireRecentSession, reauthenticate };
}

export type IdentityProof = ReturnType<typeof createIdentityProof>;
