import type { OidcFailure, RegisterBody, StatisticEvent } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { AppError, conflict, unauthorized } from '../shared/errors.js';
import { isUniqueViolation } from '../shared/sql-errors.js';
import { recordEvents } from '../statistics/record-events.js';
import type { GoogleIdentity } from './google-id-token.js';
import { adoptTimeZone } from '../account/preferences.js';
import { insertAccount } from './new-account.js';
import { hashPassword, refuseWeakPassword, verifyPassword } from './passwords.js';
import { deriveUsername } from './usernames.js';
import type { SetupGate } from './setup-token.js';
import {
  endSession,
  rotateRefreshToken,
  sessionOfRefreshToken,
  startSession as storeSession,
} from './refresh-tokens.js';

export interface Session {
  userId: number;
  /** The session's id (sessions.id), for what a sign-in keeps with it. */
  sessionId: string;
  username: string;
  accessToken: string;
  refreshToken: string;
  /** When the session ends whatever happens (epoch ms): the refresh cookie's lifetime. */
  expiresAt: number;
  /** The one-time password of an account the operator made must be changed first. */
  passwordChangeRequired: boolean;
}

export interface AuthServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  signAccessToken: (user: { id: number; username: string; sessionId: string }) => Promise<string>;
  /** A session's absolute lifetime from sign-in (SESSION_MAX_DAYS). */
  sessionMaxMs: number;
  /** A session not renewed for this long ends (SESSION_IDLE_DAYS). */
  sessionIdleMs: number;
  /** Whether new accounts may be made, by the form or by Google (REGISTRATION). */
  registration: 'open' | 'closed';
  /** SETUP_TOKEN's gate on the first account; none when it is unset. */
  setupGate?: SetupGate;
  /** False with OIDC_ONLY: the form makes no accounts (the operator's CLI still does). */
  passwordSignUp?: boolean;
}

/** The account a sign-in proved its first factor for (auth/sign-in.ts decides what follows). */
export interface SignInUser {
  id: number;
  username: string;
  password_must_change?: number;
}

/**
 * A sign-in through Google or OpenID Connect: an account that exists (it goes on to sign-in.ts,
 * which may ask for its second factor), or a new one's session.
 */
export type ProviderEntry = { existing: SignInUser } | { created: Session };

/** Where a sign-in comes from, kept with its session. */
export interface Device {
  userAgent: string | null;
  /** The browser's IANA zone (x-time-zone); it becomes the account's until one is set. */
  timeZone: string | null;
}

/** A refresh that found a leaked token: the session it ended, for the security log. */
export class RefreshTokenReused extends AppError {
  constructor(
    readonly userId: number,
    readonly sessionId: string,
  ) {
    super(401, 'Your session has expired - please log in again');
  }
}

/** An OIDC sign-in refused for one of the contract's OIDC_FAILURES (shown on /login). */
export class OidcRefusal extends Error {
  constructor(readonly failure: OidcFailure) {
    super(failure);
    this.name = 'OidcRefusal';
  }
}

const BAD_CREDENTIALS = 'Invalid username or password';

/** REGISTRATION=closed: the operator makes the accounts. */
const signUpClosed = () => new AppError(403, 'Sign-up is closed on this server');

export function createAuthService({
  db,
  clock,
  signAccessToken,
  sessionMaxMs,
  sessionIdleMs,
  registration,
  setupGate,
  passwordSignUp = true,
}: AuthServiceDeps) {
  /** While the setup token guards the first account, no provider sign-in may make it. */
  const refuseBeforeSetup = async () => {
    if (await setupGate?.pending()) throw signUpClosed();
  };

  const sessionOf = async (
    user: { id: number; username: string; password_must_change?: number },
    started: { sessionId: string; refreshToken: string; expiresAt: number },
  ): Promise<Session> => ({
    userId: user.id,
    sessionId: started.sessionId,
    username: user.username,
    accessToken: await signAccessToken({
      id: user.id,
      username: user.username,
      sessionId: started.sessionId,
    }),
    refreshToken: started.refreshToken,
    expiresAt: started.expiresAt,
    passwordChangeRequired: user.password_must_change === 1,
  });

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
      /** The OpenID Connect identity of an account it creates. */
      oidc?: { issuer: string; subject: string };
    },
    events: StatisticEvent[],
    device: Device,
  ): Promise<Session> {
    const { username } = account;
    const now = clock();
    const { id, started } = await db.transaction().execute(async (trx) => {
      const userId = await insertAccount(
        trx,
        {
          ...account,
          // The provider vouched for the address of an account it creates (Google and OIDC
          // sign-ins make none from an unverified one).
          emailVerifiedAt:
            account.googleSubject !== null || account.oidc !== undefined ? now : null,
        },
        now,
      );
      const session = await storeSession(trx, userId, now, sessionMaxMs, device.userAgent);
      await recordEvents(trx, userId, [...events, 'tokensGenerated', 'refreshTokensCreated'], now);
      return { id: userId, started: session };
    });
    return sessionOf({ id, username }, started);
  }

  async function register(input: RegisterBody, device: Device): Promise<Session> {
    // The operator's first account, made with the setup token, may be made while sign-up is closed.
    const first = (await setupGate?.admitFirst(input.setupToken)) ?? false;
    if (registration === 'closed' && !first) throw signUpClosed();
    if (!passwordSignUp) {
      throw new AppError(403, 'Sign-up with a password is off on this server - use single sign-on');
    }
    await refuseWeakPassword(input.password, 'password', input);
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
      return await createAccount(
        { username, email, passwordHash, googleSubject: null },
        ['registrations'],
        device,
      );
    } catch (error) {
      // Two registrations racing for the same name: the unique index decides.
      if (isUniqueViolation(error))
        throw conflict('That username or e-mail address is already taken');
      throw error;
    }
  }

  /** The account whose password this is; 401 otherwise. What follows is sign-in.ts's call. */
  async function login(usernameInput: string, password: string): Promise<SignInUser> {
    const user = await db
      .selectFrom('users')
      .select(['id', 'username', 'password_hash', 'password_must_change'])
      .where('username_lower', '=', usernameInput.toLowerCase())
      .executeTakeFirst();
    const valid = await verifyPassword(user?.password_hash ?? null, password);
    if (!user || !valid) throw unauthorized(BAD_CREDENTIALS);
    return {
      id: user.id,
      username: user.username,
      password_must_change: user.password_must_change,
    };
  }

  /** The account as a sign-in needs it (the second step reads it again), or null when gone. */
  async function signInUser(userId: number): Promise<SignInUser | null> {
    const user = await db
      .selectFrom('users')
      .select(['id', 'username', 'password_must_change'])
      .where('id', '=', userId)
      .executeTakeFirst();
    return user ?? null;
  }

  async function usernameOf(userId: number): Promise<string | null> {
    return (await signInUser(userId))?.username ?? null;
  }

  /**
   * Signs in an account another way proved (a passkey: server/src/passkeys): a complete sign-in
   * of its own, with no password and so no one-time-password prompt.
   */
  async function signInAs(userId: number, device: Device): Promise<Session> {
    const user = await db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) throw unauthorized('That account no longer exists');
    return startSession(user, ['logins'], device);
  }

  /** The id of the account with this username (ignoring case), or null. */
  async function idOf(username: string): Promise<number | null> {
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('username_lower', '=', username.toLowerCase())
      .executeTakeFirst();
    return user?.id ?? null;
  }

  /** Starts a session with an access token and its first refresh token, counting the events. */
  async function startSession(
    user: SignInUser,
    events: ('logins' | 'googleAuths')[],
    device: Device,
    /** A sign-in with another party (Google, OIDC): the operator's one-time password is moot. */
    viaProvider = events.includes('googleAuths'),
  ): Promise<Session> {
    const now = clock();
    // Only the password sign-in asks: Google proves who it is without the operator's password.
    const mustChange = user.password_must_change === 1 && !viaProvider;
    const started = await db.transaction().execute(async (trx) => {
      const session = await storeSession(
        trx,
        user.id,
        now,
        sessionMaxMs,
        device.userAgent,
        mustChange,
      );
      await recordEvents(trx, user.id, [...events, 'tokensGenerated', 'refreshTokensCreated'], now);
      await adoptTimeZone(trx, user.id, device.timeZone);
      return session;
    });
    return sessionOf({ ...user, password_must_change: mustChange ? 1 : 0 }, started);
  }

  /** A free username made from the e-mail address, for an account a provider's sign-in creates. */
  const usernameFor = (email: string) =>
    deriveUsername(email, async (candidate) =>
      Boolean(
        await db
          .selectFrom('users')
          .select('id')
          .where('username_lower', '=', candidate.toLowerCase())
          .executeTakeFirst(),
      ),
    );

  /**
   * Signs in the account linked to the Google subject. On first sign-in it links the account with
   * the same e-mail only when Tally itself has verified that address (a link, a reset, an earlier
   * Google account) and the account has no Google identity yet; otherwise the person signs in
   * with the password and links Google in Settings. Google vouching for the address is not
   * enough: whoever registered someone's address first would get their Google sign-in
   * (decision 078).
   * Without an account it creates one (while sign-up is open) with a username derived from the
   * e-mail. Accounts are found by subject afterwards, whatever the e-mail becomes.
   */
  async function googleLogin(identity: GoogleIdentity, device: Device): Promise<ProviderEntry> {
    const linked = await db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('google_subject', '=', identity.subject)
      .executeTakeFirst();
    if (linked) return { existing: linked };

    const email = identity.email.trim();
    // An account that has this address is never entered, nor linked, by a Google sign-in: its
    // password was not proven, and a verified address proves little (whoever registered the
    // victim's address first may have had the victim click the verification link). The person
    // signs in with the password and links Google in Settings (docs/decisions/078-pre-account-takeover.md).
    const sameEmail = await db
      .selectFrom('users')
      .select('id')
      .where('email_lower', '=', email.toLowerCase())
      .executeTakeFirst();
    if (sameEmail) {
      throw conflict(
        'An account with this e-mail address already exists - sign in with your password and link Google in Settings',
      );
    }
    if (registration === 'closed') throw signUpClosed();
    await refuseBeforeSetup();

    try {
      const username = await usernameFor(email);
      // A new account has no second factor yet: its session starts at once.
      const created = await createAccount(
        { username, email, passwordHash: null, googleSubject: identity.subject },
        ['registrations', 'googleAuths', 'logins'],
        device,
      );
      return { created };
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('Please try signing in with Google again');
      throw error;
    }
  }

  /**
   * Signs in the account linked to the OpenID Connect identity (issuer and subject), else creates
   * one, with the rules of Google's sign-in (decision 078): an existing account with the same
   * e-mail address is never entered nor linked (its owner signs in and links in Settings), no
   * account is made from an address the provider has not verified, and none while sign-up is
   * closed or OIDC_AUTO_REGISTER=false. Throws the contract's
   * OIDC_FAILURES codes as `OidcRefusal`.
   */
  async function oidcLogin(
    identity: { issuer: string; subject: string; email: string | null; emailVerified: boolean },
    device: Device,
    autoRegister: boolean,
  ): Promise<ProviderEntry> {
    const linked = await db
      .selectFrom('users')
      .select(['id', 'username', 'password_must_change'])
      .where('oidc_issuer', '=', identity.issuer)
      .where('oidc_subject', '=', identity.subject)
      .executeTakeFirst();
    if (linked) return { existing: linked };

    if (identity.email === null) throw new OidcRefusal('no_email');
    // An address the provider has not verified may be anyone's: an account made with it would
    // be the real owner's to reset, while the provider identity that made it still signs in
    // (docs/decisions/078-pre-account-takeover.md).
    if (!identity.emailVerified) throw new OidcRefusal('email_unverified');
    const email = identity.email;
    const sameEmail = await db
      .selectFrom('users')
      .select('id')
      .where('email_lower', '=', email.toLowerCase())
      .executeTakeFirst();
    if (sameEmail) throw new OidcRefusal('email_exists');
    if (registration === 'closed' || !autoRegister || (await setupGate?.pending())) {
      throw new OidcRefusal('registration_closed');
    }
    try {
      const username = await usernameFor(email);
      const created = await createAccount(
        {
          username,
          email,
          passwordHash: null,
          googleSubject: null,
          oidc: { issuer: identity.issuer, subject: identity.subject },
        },
        ['registrations', 'logins'],
        device,
      );
      return { created };
    } catch (error) {
      // Two first sign-ins racing: the unique indexes decide; the loser starts again.
      if (isUniqueViolation(error)) throw new OidcRefusal('flow_expired');
      throw error;
    }
  }

  async function refresh(presented: string | undefined, device: Device): Promise<Session> {
    if (!presented) throw unauthorized('No session to renew - please log in');
    const now = clock();
    // Ending a session on reuse must be committed even though the caller gets a 401, so the
    // transaction returns the outcome and the error is thrown after it.
    const outcome = await db.transaction().execute(async (trx) => {
      const result = await rotateRefreshToken(trx, presented, now, sessionIdleMs);
      if (result.status !== 'rotated') return result;
      const user = await trx
        .selectFrom('users')
        .select(['id', 'username'])
        .where('id', '=', result.userId)
        .executeTakeFirst();
      if (!user) return { status: 'invalid' as const };
      await recordEvents(trx, result.userId, ['tokensGenerated', 'refreshTokensCreated'], now);
      await adoptTimeZone(trx, result.userId, device.timeZone);
      return { ...result, user };
    });
    if (outcome.status === 'reused')
      throw new RefreshTokenReused(outcome.userId, outcome.sessionId);
    if (outcome.status !== 'rotated') {
      throw new AppError(401, 'Your session has expired - please log in again');
    }
    const mustChange = outcome.passwordChangeRequired ? 1 : 0;
    return sessionOf({ ...outcome.user, password_must_change: mustChange }, outcome);
  }

  /** Ends the session the refresh token belongs to; an unknown token changes nothing. */
  async function logout(presented: string | undefined): Promise<void> {
    if (!presented) return;
    const session = await sessionOfRefreshToken(db, presented);
    if (session) await endSession(db, session.sessionId, clock());
  }

  return {
    register,
    login,
    idOf,
    signInUser,
    signInAs,
    usernameOf,
    startSession,
    googleLogin,
    oidcLogin,
    refresh,
    logout,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
