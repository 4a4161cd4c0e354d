import type { ChangePasswordBody } from '@tally/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { endSessionsOf, endTokensAndFeed } from '../auth/end-access.js';
import { hashPassword, refuseWeakPassword } from '../auth/passwords.js';
import type { Database } from '../db/schema.js';
import type { Counters } from '../plugins/counters.js';
import type { Clock } from '../shared/clock.js';
import { badRequest, conflict } from '../shared/errors.js';
import { consumeToken, type EmailLinks, retireTokens } from './email-links.js';
import type { IdentityProof } from './identity-proof.js';
import { accountRow, BAD_LINK, HOUR, MAILS_PER_HOUR, NO_PASSWORD } from './rows.js';

export interface PasswordDeps {
  db: Kysely<Database>;
  clock: Clock;
  links: EmailLinks;
  counters: Counters;
  proof: IdentityProof;
}

/** Changing the password in Settings, and resetting it with an e-mailed link. */
export function createPasswordService({ db, clock, links, counters, proof }: PasswordDeps) {
  /** Null when the account is gone. */
  async function changePassword(
    user: { id: number; sessionId: string },
    body: ChangePasswordBody,
  ): Promise<{ sessionsEnded: number; apiTokens: number; calendarFeed: boolean } | null> {
    const row = await accountRow(db, user.id);
    if (!row) return null;
    if (row.password_hash === null) throw conflict(NO_PASSWORD);
    await refuseWeakPassword(body.newPassword, 'newPassword', row);
    await proof.checkPassword(user.id, row.password_hash, body.currentPassword, 'currentPassword');
    const hash = await hashPassword(body.newPassword);
    const now = clock();
    return db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ password_hash: hash, password_must_change: 0 })
        .where('id', '=', user.id)
        .execute();
      // Proving the password just now is a recent proof; the one-time password is gone.
      await trx
        .updateTable('sessions')
        .set({ password_change_required: 0, reauthenticated_at: now })
        .where('id', '=', user.sessionId)
        .execute();
      // A reset link asked for before the change must not undo it.
      await retireTokens(trx, user.id, ['reset-password'], now);
      const sessionsEnded = await endSessionsOf(trx, user.id, now, user.sessionId);
      const ended = body.endApiTokensAndFeed
        ? await endTokensAndFeed(trx, user.id)
        : { apiTokens: 0, calendarFeed: false };
      return { sessionsEnded, ...ended };
    });
  }

  /**
   * A reset link for the account with this address, if there is one. Runs after the answer
   * (see the route), so the answer is the same, in the same time, for every address.
   */
  async function requestPasswordReset(
    emailInput: string,
    log: FastifyBaseLogger,
    ip: string,
  ): Promise<void> {
    if (!links.enabled) return;
    const row = await db
      .selectFrom('users')
      .select(['id', 'username', 'email'])
      .where('email_lower', '=', emailInput.trim().toLowerCase())
      .executeTakeFirst();
    if (!row) return;
    // Someone could fill a mailbox by asking again and again.
    const sent = await counters.hit(`reset-mail:${row.id}`, HOUR);
    if (sent.count > MAILS_PER_HOUR) return;
    log.warn(
      { security: 'password-reset-requested', userId: row.id, ip },
      'A password-reset link was asked for',
    );
    await links.sendPasswordReset(row);
  }

  /**
   * Sets the password from a reset link. Whoever had the account's access keeps none of it: every
   * session ends, every personal API token is revoked, the calendar feed is turned off (the reset
   * mail and page say so). A linked Google or OpenID Connect identity stays linked, shown in
   * Settings, if the address was verified before; if it never was, the link goes.
   */
  async function resetPassword(
    token: string,
    password: string,
  ): Promise<{
    userId: number;
    username: string;
    sessionsEnded: number;
    apiTokens: number;
    calendarFeed: boolean;
    /** The provider identities unlinked because the address was never verified before. */
    unlinked: { google: boolean; oidc: boolean };
  }> {
    // Refused before the token is spent, so the same link can try another password; what the
    // account's own names refuse is refused in the transaction, which then spends nothing.
    await refuseWeakPassword(password, 'password', null);
    // Hashed before the token is spent: the transaction stays short, and a bad token costs the
    // same time as a good one.
    const hash = await hashPassword(password);
    const now = clock();
    const outcome = await db.transaction().execute(async (trx) => {
      const spent = await consumeToken(trx, 'reset-password', token, now);
      if (!spent) return null;
      const row = await trx
        .selectFrom('users')
        .select([
          'id',
          'username',
          'email',
          'email_lower',
          'email_verified_at',
          'google_subject',
          'oidc_subject',
        ])
        .where('id', '=', spent.userId)
        .executeTakeFirst();
      if (!row) return null;
      await refuseWeakPassword(password, 'password', row);
      // Following the link proved the mailbox, if it is still the account's address.
      const verified = row.email_verified_at ?? (row.email_lower === spent.emailLower ? now : null);
      // Whoever linked a Google or OpenID Connect identity to an address never verified may not
      // be its owner, who takes the account over now: the link goes, or its maker would still
      // sign in (docs/decisions/078-pre-account-takeover.md).
      const unlink = row.email_verified_at === null;
      await trx
        .updateTable('users')
        .set({
          password_hash: hash,
          email_verified_at: verified,
          password_must_change: 0,
          password_reset_at: now,
          ...(unlink ? { google_subject: null, oidc_issuer: null, oidc_subject: null } : {}),
        })
        .where('id', '=', row.id)
        .execute();
      await retireTokens(trx, row.id, ['reset-password'], now);
      const sessionsEnded = await endSessionsOf(trx, row.id, now, null);
      const ended = await endTokensAndFeed(trx, row.id);
      const unlinked = {
        google: unlink && row.google_subject !== null,
        oidc: unlink && row.oidc_subject !== null,
      };
      return { userId: row.id, username: row.username, sessionsEnded, unlinked, ...ended };
    });
    if (!outcome) throw badRequest(BAD_LINK);
    return outcome;
  }

  return { changePassword, requestPasswordReset, resetPassword };
}
