import type { RegisterBody, StatisticEvent } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { AppError, conflict, unauthorized } from '../shared/errors.js';
import { isUniqueViolation } from '../shared/sql-errors.js';
import { recordEvents } from '../statistics/record-events.js';
import type { GoogleIdentity } from './google-id-token.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { deriveUsername } from './usernames.js';
import { consumeRefreshToken, issueRefreshToken, revokeRefreshToken } from './refresh-tokens.js';

export interface Session {
  username: string;
  accessToken: string;
  refreshToken: string;
}

export interface AuthServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  signAccessToken: (user: { id: number; username: string }) => Promise<string>;
}

const BAD_CREDENTIALS = 'Invalid username or password';

export function createAuthService({ db, clock, signAccessToken }: AuthServiceDeps) {
  /**
   * A new account and its first session in one transaction: the user row, a refresh token and
   * the events (`events` plus the two every new session counts).
   */
  async function createAccount(
    account: {
      username: string;
      email: string;
      passwordHash: string | null;
      googleSubject: string | null;
    },
    events: StatisticEvent[],
  ): Promise<Session> {
    const { username, email } = account;
    const now = clock();
    const { id, refreshToken } = await db.transaction().execute(async (trx) => {
      const user = await trx
        .insertInto('users')
        .values({
          username,
          username_lower: username.toLowerCase(),
          email,
          email_lower: email.toLowerCase(),
          password_hash: account.passwordHash,
          google_subject: account.googleSubject,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const token = await issueRefreshToken(trx, user.id, now);
      await recordEvents(trx, user.id, [...events, 'tokensGenerated', 'refreshTokensCreated'], now);
      return { id: user.id, refreshToken: token };
    });
    return { username, accessToken: await signAccessToken({ id, username }), refreshToken };
  }

  async function register(input: RegisterBody): Promise<Session> {
    const username = input.username;
    const email = input.email.trim();
    const taken = await db
      .selectFrom('users')
      .select(['username_lower', 'email_lower'])
      .where((eb) =>
        eb.or([
          eb('username_lower', '=', username.toLowerCase()),
          eb('email_lower', '=', email.toLowerCase()),
        ]),
      )
      .execute();
    if (taken.some((row) => row.username_lower === username.toLowerCase())) {
      throw conflict('That username is already taken');
    }
    if (taken.length > 0) throw conflict('That e-mail address is already registered');

    const passwordHash = await hashPassword(input.password);
    try {
      return await createAccount({ username, email, passwordHash, googleSubject: null }, [
        'registrations',
      ]);
    } catch (error) {
      // Two registrations racing for the same name: the unique index decides.
      if (isUniqueViolation(error))
        throw conflict('That username or e-mail address is already taken');
      throw error;
    }
  }

  async function login(usernameInput: string, password: string): Promise<Session> {
    const user = await db
      .selectFrom('users')
      .select(['id', 'username', 'password_hash'])
      .where('username_lower', '=', usernameInput.toLowerCase())
      .executeTakeFirst();
    const valid = await verifyPassword(user?.password_hash ?? null, password);
    if (!user || !valid) throw unauthorized(BAD_CREDENTIALS);
    return startSession(user.id, user.username, ['logins']);
  }

  /** Issues an access token and a new refresh-token family, counting the given events. */
  async function startSession(
    userId: number,
    username: string,
    events: ('logins' | 'googleAuths')[],
  ): Promise<Session> {
    const now = clock();
    const refreshToken = await db.transaction().execute(async (trx) => {
      const token = await issueRefreshToken(trx, userId, now);
      await recordEvents(trx, userId, [...events, 'tokensGenerated', 'refreshTokensCreated'], now);
      return token;
    });
    return { username, accessToken: await signAccessToken({ id: userId, username }), refreshToken };
  }

  /**
   * Signs in the account linked to the Google subject. On first sign-in it links the account with
   * the same e-mail only when Google is authoritative for that address (gmail.com, or a Workspace
   * domain named by `hd`); otherwise it creates an account with a username derived from the
   * e-mail. Accounts are found by subject afterwards, whatever the e-mail becomes.
   */
  async function googleLogin(identity: GoogleIdentity): Promise<Session> {
    const linked = await db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('google_subject', '=', identity.subject)
      .executeTakeFirst();
    if (linked) return startSession(linked.id, linked.username, ['googleAuths', 'logins']);

    const email = identity.email.trim();
    const authoritative =
      identity.emailVerified &&
      (email.toLowerCase().endsWith('@gmail.com') || identity.hostedDomain !== null);
    const sameEmail = await db
      .selectFrom('users')
      .select(['id', 'username', 'google_subject'])
      .where('email_lower', '=', email.toLowerCase())
      .executeTakeFirst();
    if (sameEmail) {
      if (!authoritative || sameEmail.google_subject !== null) {
        throw conflict(
          'An account with this e-mail address already exists - sign in with your password',
        );
      }
      await db
        .updateTable('users')
        .set({ google_subject: identity.subject })
        .where('id', '=', sameEmail.id)
        .execute();
      return startSession(sameEmail.id, sameEmail.username, ['googleAuths', 'logins']);
    }

    try {
      const username = await deriveUsername(email, async (candidate) =>
        Boolean(
          await db
            .selectFrom('users')
            .select('id')
            .where('username_lower', '=', candidate.toLowerCase())
            .executeTakeFirst(),
        ),
      );
      return await createAccount(
        { username, email, passwordHash: null, googleSubject: identity.subject },
        ['registrations', 'googleAuths', 'logins'],
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('Please try signing in with Google again');
      throw error;
    }
  }

  async function refresh(presented: string | undefined): Promise<Session> {
    if (!presented) throw unauthorized('No session to renew - please log in');
    const now = clock();
    // Revocation on reuse must be committed even though the caller gets a 401, so the
    // transaction returns the outcome and the error is thrown after it.
    const outcome = await db.transaction().execute(async (trx) => {
      const result = await consumeRefreshToken(trx, presented, now);
      if (result.status !== 'rotated') return result;
      const user = await trx
        .selectFrom('users')
        .select('username')
        .where('id', '=', result.userId)
        .executeTakeFirst();
      if (!user) return { status: 'invalid' as const };
      const token = await issueRefreshToken(trx, result.userId, now, result.familyId);
      await recordEvents(trx, result.userId, ['tokensGenerated', 'refreshTokensCreated'], now);
      return {
        status: 'rotated' as const,
        userId: result.userId,
        username: user.username,
        refreshToken: token,
      };
    });
    if (outcome.status !== 'rotated') {
      throw new AppError(401, 'Your session has expired - please log in again');
    }
    return {
      username: outcome.username,
      accessToken: await signAccessToken({ id: outcome.userId, username: outcome.username }),
      refreshToken: outcome.refreshToken,
    };
  }

  async function logout(presented: string | undefined): Promise<void> {
    if (presented) await revokeRefreshToken(db, presented, clock());
  }

  return { register, login, googleLogin, refresh, logout };
}
