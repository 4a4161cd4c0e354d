import { randomBytes } from 'node:crypto';
import {
  AUTH_PATH,
  type AccessTokenResponse,
  type MfaBody,
  type MfaRequiredResponse,
  type SignInResponse,
} from '@tally/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Counters } from '../plugins/counters.js';
import type { Clock } from '../shared/clock.js';
import { namedTimeZoneOf } from '../shared/time-zone.js';
import { cookieName, isSecureRequest } from '../shared/cookies.js';
import { unauthorized } from '../shared/errors.js';
import { CHALLENGE_MS, type SignInKind, type TwoFactorService } from '../two-factor/service.js';
import { isKnownAddress, type LoginLimits } from './login-limits.js';
import type { AuthService, Device, Session, SignInUser } from './service.js';

export type { SignInKind };

/**
 * The refresh cookie. Whenever it can be Secure (shared/cookies.ts) it is `__Host-tally_refresh`:
 * browsers take that name only from HTTPS, with Secure, Path=/ and no Domain, so neither a
 * plain-HTTP page nor a sibling subdomain can plant or overwrite it. On http://localhost it is
 * plain `tally_refresh` on /api/auth.
 */
export const refreshCookie = (request: FastifyRequest) =>
  isSecureRequest(request)
    ? { name: '__Host-tally_refresh', path: '/', secure: true }
    : { name: 'tally_refresh', path: AUTH_PATH, secure: false };

/** The name a secure refresh cookie had before __Host- (on /api/auth): still read, then cleared. */
export const LEGACY_SECURE_COOKIE = '__Secure-tally_refresh';

export const clearLegacyCookie = (request: FastifyRequest, reply: FastifyReply) => {
  if (request.cookies[LEGACY_SECURE_COOKIE] !== undefined) {
    reply.clearCookie(LEGACY_SECURE_COOKIE, { path: AUTH_PATH, secure: true });
  }
};

/**
 * The device cookie: this browser signed in to the account before. It holds the account's id and
 * a random part, signed with a key derived from the server's secret (@fastify/cookie's HMAC), so
 * only a sign-in can give it. It exempts the browser from the per-account login gate, so guesses
 * from strangers cannot lock the owner out (auth/login-limits.ts).
 */
const deviceCookieName = (request: FastifyRequest) => cookieName(request, 'tally_device');
/** About as long as browsers keep a cookie (Chromium caps at 400 days). */
const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * The cookie that binds an mfaToken to the browser that gave the password
 * (docs/decisions/081-two-factor-codes.md): `__Host-` whenever it can be Secure, as the refresh
 * cookie. The server keeps only its hash.
 */
const mfaCookie = (request: FastifyRequest) =>
  isSecureRequest(request)
    ? { name: '__Host-tally_mfa', path: '/', secure: true }
    : { name: 'tally_mfa', path: AUTH_PATH, secure: false };

/** The account id of the browser's validly signed device cookie, or null. */
export function deviceUserId(request: FastifyRequest): number | null {
  const raw = request.cookies[deviceCookieName(request)];
  if (!raw) return null;
  const { valid, value } = request.unsignCookie(raw);
  if (!valid || value === null) return null;
  const userId = Number(value.split('.')[0]);
  return Number.isSafeInteger(userId) ? userId : null;
}

export interface SignInDeps {
  service: AuthService;
  twoFactor: TwoFactorService;
  loginLimits: LoginLimits;
  counters: Counters;
  clock: Clock;
  /**
   * Whether an identity provider's word that it did a multi-factor sign-in (the ID token's
   * `amr` has "mfa") stands for Tally's second step (TRUST_PROVIDER_MFA).
   */
  trustProviderMfa: boolean;
}

const deviceOf = (request: FastifyRequest): Device => ({
  userAgent: request.headers['user-agent'] ?? null,
  timeZone: namedTimeZoneOf(request),
});

const EVENTS: Record<SignInKind, ('logins' | 'googleAuths')[]> = {
  password: ['logins'],
  google: ['googleAuths', 'logins'],
  oidc: ['logins'],
};

/**
 * Every sign-in ends here (password, Google, and any later provider): one place decides "a
 * session now" or "the second step first" (docs/decisions/081-two-factor-codes.md).
 */
export function createSignIn(deps: SignInDeps) {
  const { service, twoFactor, loginLimits, clock } = deps;

  /** Sets the refresh cookie and answers the access token (docs/product.md, Sessions). */
  function sendSession(
    request: FastifyRequest,
    reply: FastifyReply,
    session: Session,
  ): AccessTokenResponse {
    const { name, path, secure } = refreshCookie(request);
    clearLegacyCookie(request, reply);
    reply.setCookie(name, session.refreshToken, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path,
      // The cookie goes when the session does (SESSION_MAX_DAYS after sign-in).
      maxAge: Math.max(0, Math.floor((session.expiresAt - clock()) / 1000)),
    });
    return session.passwordChangeRequired
      ? { accessToken: session.accessToken, passwordChangeRequired: true as const }
      : { accessToken: session.accessToken };
  }

  /** Marks this browser as one the account signs in from (kept across sign-outs). */
  function rememberDevice(request: FastifyRequest, reply: FastifyReply, session: Session) {
    reply.setCookie(
      deviceCookieName(request),
      `${session.userId}.${randomBytes(16).toString('base64url')}`,
      {
        httpOnly: true,
        sameSite: 'strict',
        secure: isSecureRequest(request),
        path: AUTH_PATH,
        maxAge: DEVICE_COOKIE_MAX_AGE_S,
        signed: true,
      },
    );
  }

  /**
   * A session that needs no second step: an account made just now (registration, a first Google
   * sign-in), which has no second factor yet and no failed logins to clear, or a passkey sign-in,
   * two factors in itself. The device cookie and the refresh cookie.
   */
  function finishComplete(
    request: FastifyRequest,
    reply: FastifyReply,
    session: Session,
  ): AccessTokenResponse {
    rememberDevice(request, reply, session);
    return sendSession(request, reply, session);
  }

  /** A started session: the device cookie, the login limits cleared, the refresh cookie. */
  async function finish(
    request: FastifyRequest,
    reply: FastifyReply,
    session: Session,
    kind: SignInKind,
  ): Promise<AccessTokenResponse> {
    if (kind === 'password') await loginLimits.succeeded(session.username, request.ip);
    rememberDevice(request, reply, session);
    return sendSession(request, reply, session);
  }

  /**
   * The first factor was just proved: a started session (its cookies not yet sent: `finish`), or,
   * when the account has two-factor codes on (and no trusted provider says it did MFA), the
   * second step's answer, bound to this browser by the mfa cookie set here. A redirect-based
   * sign-in (OpenID Connect) sends the browser to `/login#mfa=<mfaToken>`, where the page goes on.
   */
  async function begin(
    request: FastifyRequest,
    reply: FastifyReply,
    user: SignInUser,
    how: { kind: SignInKind; providerDidMfa?: boolean },
  ): Promise<{ session: Session } | { mfa: MfaRequiredResponse }> {
    const skip = how.kind !== 'password' && deps.trustProviderMfa && how.providerDidMfa === true;
    if (!skip && (await twoFactor.isEnabled(user.id))) {
      const challenge = await twoFactor.startChallenge(user.id, how.kind);
      const { name, path, secure } = mfaCookie(request);
      reply.setCookie(name, challenge.browserSecret, {
        httpOnly: true,
        sameSite: 'strict',
        secure,
        path,
        maxAge: CHALLENGE_MS / 1000,
      });
      return {
        mfa: { mfaRequired: true, mfaToken: challenge.mfaToken, methods: challenge.methods },
      };
    }
    return { session: await startSessionOf(request, user, how.kind) };
  }

  /** Signs in an account whose first factor was just proved: a session, or the second step. */
  async function signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    user: SignInUser,
    how: { kind: SignInKind; providerDidMfa?: boolean },
  ): Promise<SignInResponse> {
    const started = await begin(request, reply, user, how);
    return 'mfa' in started ? started.mfa : finish(request, reply, started.session, how.kind);
  }

  /** Google and OpenID Connect prove who it is without the operator's one-time password. */
  const startSessionOf = (request: FastifyRequest, user: SignInUser, kind: SignInKind) =>
    service.startSession(user, EVENTS[kind], deviceOf(request), kind !== 'password');

  /** POST /api/auth/mfa: the code for a waiting sign-in; answers as a login does. */
  async function completeSecondStep(
    request: FastifyRequest,
    reply: FastifyReply,
    body: MfaBody,
  ): Promise<AccessTokenResponse> {
    const cookie = mfaCookie(request);
    const trusted = async (userId: number) => {
      if (deviceUserId(request) === userId) return true;
      const username = await service.usernameOf(userId);
      return username !== null && isKnownAddress(deps.counters, username, request.ip);
    };
    const done = await twoFactor.completeChallenge(
      body.mfaToken,
      request.cookies[cookie.name],
      body.code,
      trusted,
    );
    reply.clearCookie(cookie.name, { path: cookie.path, secure: cookie.secure });
    const user = await service.signInUser(done.userId);
    if (!user) throw unauthorized('This sign-in has expired - please sign in again');
    const session = await startSessionOf(request, user, done.kind);
    request.log.info(
      { security: 'second-factor', userId: done.userId, method: done.method, ip: request.ip },
      'Second step of a sign-in passed',
    );
    return finish(request, reply, session, done.kind);
  }

  return { begin, finish, signIn, completeSecondStep, finishComplete, sendSession };
}
