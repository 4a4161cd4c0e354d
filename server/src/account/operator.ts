import { randomBytes } from 'node:crypto';
import { LIMITS, RegisterBodySchema } from '@tally/contract';
import type { Kysely } from 'kysely';
import { insertAccount } from '../auth/new-account.js';
import {
  hashPassword,
  isCommonPassword,
  isContextPassword,
  type PasswordOwner,
} from '../auth/passwords.js';
import type { Database } from '../db/schema.js';
import { createBodyValidator } from '../plugins/validation.js';
import type { Clock } from '../shared/clock.js';
import { validationMessage } from '../shared/validation-message.js';
import { recordEvents } from '../statistics/record-events.js';
import { issueToken } from './email-links.js';
import { endSessionsOf } from '../auth/end-access.js';
import { deleteAccountRows } from './deletion.js';

/**
 * What an operator does from the command line (`tally user …`, docs/product.md, Operators): the
 * same rules as the API (names, addresses and passwords are checked by the contract's schema),
 * without a session of their own.
 */

export class OperatorError extends Error {}

export interface UserSummary {
  username: string;
  email: string;
  emailVerified: boolean;
  hasPassword: boolean;
  googleLinked: boolean;
  /** Linked to the single sign-on provider (OIDC). */
  oidcLinked: boolean;
  createdAt: string;
  openSessions: number;
}

/** A random password an operator can hand over: one-time, the user changes it at sign-in. */
export const generatePassword = () => randomBytes(15).toString('base64url');

// The registration form's rules, so an operator cannot make an account the API would refuse.
const validRegistration = createBodyValidator().compile(RegisterBodySchema);

export function createOperator(db: Kysely<Database>, clock: Clock, publicUrl: string) {
  async function find(username: string) {
    const row = await db
      .selectFrom('users')
      .select(['id', 'username', 'email'])
      .where('username_lower', '=', username.toLowerCase())
      .executeTakeFirst();
    if (!row) throw new OperatorError(`No user named ${username}`);
    return row;
  }

  async function checkPassword(password: string, owner: PasswordOwner) {
    if (password.length < LIMITS.passwordMin || password.length > LIMITS.passwordMax) {
      throw new OperatorError(
        `The password must be ${LIMITS.passwordMin}-${LIMITS.passwordMax} characters long`,
      );
    }
    if (await isCommonPassword(password)) {
      throw new OperatorError('The password is too common - choose another');
    }
    if (await isContextPassword(password, owner)) {
      throw new OperatorError(
        'The password is built on the username, the e-mail address or the name Tally - choose another',
      );
    }
  }

  return {
    async list(): Promise<UserSummary[]> {
      const rows = await db
        .selectFrom('users as u')
        .select((eb) => [
          'u.username',
          'u.email',
          'u.email_verified_at',
          'u.password_hash',
          'u.google_subject',
          'u.oidc_subject',
          'u.created_at',
          eb
            .selectFrom('sessions as s')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('s.user_id', '=', 'u.id')
            .where('s.ended_at', 'is', null)
            .where('s.expires_at', '>', clock())
            .as('open_sessions'),
        ])
        .orderBy('u.username_lower')
        .execute();
      return rows.map((row) => ({
        username: row.username,
        email: row.email,
        emailVerified: row.email_verified_at !== null,
        hasPassword: row.password_hash !== null,
        googleLinked: row.google_subject !== null,
        oidcLinked: row.oidc_subject !== null,
        createdAt: new Date(row.created_at).toISOString(),
        openSessions: Number(row.open_sessions ?? 0),
      }));
    },

    /** `oneTime`: the first sign-in must choose a new password (decision 071). */
    async create(
      username: string,
      email: string,
      password: string,
      oneTime = false,
    ): Promise<void> {
      const body = { username, email, password };
      if (!validRegistration(body)) {
        throw new OperatorError(validationMessage(validRegistration.errors ?? [], 'body'));
      }
      await checkPassword(password, body);
      const taken = await db
        .selectFrom('users')
        .select(['username_lower'])
        .where((eb) =>
          eb.or([
            eb('username_lower', '=', username.toLowerCase()),
            eb('email_lower', '=', email.toLowerCase()),
          ]),
        )
        .executeTakeFirst();
      if (taken) {
        throw new OperatorError(
          taken.username_lower === username.toLowerCase()
            ? `The username ${username} is taken`
            : `The e-mail address ${email} is registered already`,
        );
      }
      const hash = await hashPassword(password);
      const now = clock();
      await db.transaction().execute(async (trx) => {
        const userId = await insertAccount(
          trx,
          { username, email, passwordHash: hash, passwordMustChange: oneTime },
          now,
        );
        await recordEvents(trx, userId, ['registrations'], now);
      });
    },

    /** A one-time link that sets a new password (valid 1 hour), as "Forgot password?" sends. */
    async resetLink(username: string): Promise<string> {
      const user = await find(username);
      const token = await issueToken(db, user, 'reset-password', clock());
      return `${publicUrl}/reset-password#token=${token}`;
    },

    /** Sets the password now; every session of the account ends. */
    async setPassword(username: string, password: string): Promise<void> {
      const user = await find(username);
      await checkPassword(password, user);
      const hash = await hashPassword(password);
      const now = clock();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ password_hash: hash })
          .where('id', '=', user.id)
          .execute();
        await endSessionsOf(trx, user.id, now, null);
      });
    },

    async verify(username: string): Promise<void> {
      const user = await find(username);
      await db
        .updateTable('users')
        .set({ email_verified_at: clock() })
        .where('id', '=', user.id)
        .where('email_verified_at', 'is', null)
        .execute();
    },

    /**
     * Turns two-factor codes off for someone who lost the phone and the recovery codes
     * (docs/decisions/081-two-factor-codes.md); false when they were not on.
     */
    async disableTwoFactor(username: string): Promise<boolean> {
      const user = await find(username);
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('recovery_codes').where('user_id', '=', user.id).execute();
        await trx.deleteFrom('mfa_challenges').where('user_id', '=', user.id).execute();
        const removed = await trx
          .deleteFrom('two_factor')
          .where('user_id', '=', user.id)
          .executeTakeFirst();
        return Number(removed.numDeletedRows) > 0;
      });
    },

    /** Grants or takes back the admin page; the CLI never takes the last operator away. */
    async setOperator(username: string, operator: boolean): Promise<void> {
      const user = await find(username);
      if (!operator) {
        const others = await db
          .selectFrom('users')
          .select('id')
          .where('operator', '=', 1)
          .where('id', '!=', user.id)
          .executeTakeFirst();
        if (!others) {
          throw new OperatorError(
            `${username} is the only operator: grant another account first (tally admin grant <username>)`,
          );
        }
      }
      await db
        .updateTable('users')
        .set({ operator: operator ? 1 : 0 })
        .where('id', '=', user.id)
        .execute();
    },

    async remove(username: string): Promise<void> {
      const user = await find(username);
      await deleteAccountRows(db, user.id);
    },
  };
}
