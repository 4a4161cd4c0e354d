import type { Account, ChangeEmailBody, VerificationAccount } from '@tally/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { createHash } from 'node:crypto';
import type { Database } from '../db/schema.js';
import type { Counters } from '../plugins/counters.js';
import type { Clock } from '../shared/clock.js';
import { badRequest, conflict, serviceUnavailable } from '../shared/errors.js';
import { mailErrorForLog } from '../shared/mailer.js';
import { isUniqueViolation } from '../shared/sql-errors.js';
import { consumeToken, type EmailLinks, peekToken, retireTokens } from './email-links.js';
import type { IdentityProof } from './identity-proof.js';
import {
  accountRow,
  BAD_LINK,
  HOUR,
  MAILS_PER_HOUR,
  NO_PASSWORD,
  toAccount,
  tooMany,
} from './rows.js';

export interface EmailDeps {
  db: Kysely<Database>;
  clock: Clock;
  links: EmailLinks;
  counters: Counters;
  proof: IdentityProof;
}

/** The account's e-mail address: changing it, and proving it with a verification link. */
export function createEmailService({ db, clock, links, counters, proof }: EmailDeps) {
  /**
   * Counts a verification mail against the hourly allowance of the account and of the address it
   * goes to, before anything is written or sent: a resend and an address change draw on the same
   * allowance, so neither can fill a stranger's mailbox with a burst of changes.
   * The address is kept as a hash, so the counters hold no addresses.
   */
  async function allowVerificationMail(userId: number, emailLower: string): Promise<void> {
    const sent = await counters.hit(`verification-mail:${userId}`, HOUR);
    if (sent.count > MAILS_PER_HOUR) throw tooMany('Too many verification e-mails', sent.ttlMs);
    const address = createHash('sha256').update(emailLower).digest('base64url');
    const received = await counters.hit(`verification-mail-to:${address}`, HOUR);
    if (received.count > MAILS_PER_HOUR) {
      throw tooMany('Too many verification e-mails to this address', received.ttlMs);
    }
  }

  async function changeEmail(
    userId: number,
    body: ChangeEmailBody,
    log: FastifyBaseLogger,
  ): Promise<{ account: Account; changed: boolean } | null> {
    const row = await accountRow(db, userId);
    if (!row) return null;
    if (row.password_hash === null) throw conflict(NO_PASSWORD);
    await proof.checkPassword(userId, row.password_hash, body.currentPassword, 'currentPassword');
    const email = body.email.trim();
    const emailLower = email.toLowerCase();
    if (emailLower === row.email_lower) {
      // Only the spelling changes: still the verified (or not) same address.
      await db.updateTable('users').set({ email }).where('id', '=', userId).execute();
      return { account: toAccount({ ...row, email }), changed: false };
    }
    const taken = await db
      .selectFrom('users')
      .select('id')
      .where('email_lower', '=', emailLower)
      .executeTakeFirst();
    if (taken) throw conflict('That e-mail address is already registered');
    if (links.enabled) await allowVerificationMail(userId, emailLower);
    const now = clock();
    try {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ email, email_lower: emailLower, email_verified_at: null })
          .where('id', '=', userId)
          .execute();
        // Links sent to the old address prove nothing about the new one.
        await retireTokens(trx, userId, ['verify-email', 'reset-password'], now);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('That e-mail address is already registered');
      throw error;
    }
    links.sendVerificationLater({ id: userId, username: row.username, email }, log);
    return {
      account: toAccount({ ...row, email, email_verified_at: null }),
      changed: true,
    };
  }

  async function resendVerification(userId: number, log: FastifyBaseLogger): Promise<boolean> {
    if (!links.enabled) throw serviceUnavailable('This server does not send e-mail');
    const row = await accountRow(db, userId);
    if (!row) return false;
    if (row.email_verified_at !== null) throw conflict('Your e-mail address is already verified');
    await allowVerificationMail(userId, row.email_lower);
    try {
      await links.sendVerification({ id: userId, username: row.username, email: row.email });
    } catch (error) {
      log.error({ err: mailErrorForLog(error), userId }, 'Sending the verification e-mail failed');
      throw serviceUnavailable('The e-mail could not be sent - try again later');
    }
    return true;
  }

  /**
   * The account and address a verification link is for, while it can still verify them;
   * changes nothing (docs/decisions/078-pre-account-takeover.md).
   */
  async function verificationAccount(token: string): Promise<VerificationAccount> {
    const link = await peekToken(db, 'verify-email', token, clock());
    const row = link
      ? await db
          .selectFrom('users')
          .select(['username', 'email'])
          .where('id', '=', link.userId)
          .where('email_lower', '=', link.emailLower)
          .executeTakeFirst()
      : undefined;
    if (!row) throw badRequest(BAD_LINK);
    return { username: row.username, email: row.email };
  }

  async function verifyEmail(token: string): Promise<{ userId: number }> {
    const now = clock();
    const outcome = await db.transaction().execute(async (trx) => {
      const spent = await consumeToken(trx, 'verify-email', token, now);
      if (!spent) return null;
      // The link proves the address it was sent to, and only while the account still has it.
      const updated = await trx
        .updateTable('users')
        .set((eb) => ({ email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now)) }))
        .where('id', '=', spent.userId)
        .where('email_lower', '=', spent.emailLower)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1 ? { userId: spent.userId } : null;
    });
    if (!outcome) throw badRequest(BAD_LINK);
    return outcome;
  }

  return { changeEmail, resendVerification, verificationAccount, verifyEmail };
}
