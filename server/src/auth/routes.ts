import { randomBytes } from 'node:crypto';
import { AUTH_PATH, authApi } from '@tally/contract';
import cookie from '@fastify/cookie';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { cookieName, isSecureRequest } from '../shared/cookies.js';
import { AppError, serviceUnavailable } from '../shared/errors.js';
import { createLoginLimits } from './login-limits.js';
import {
  createGoogleVerifier,
  type GoogleVerifierOptions,
  issueGoogleNonce,
  takeGoogleNonce,
} from './google-id-token.js';
import type { OidcConfig } from '../config.js';
import { registerOidcRoutes } from './oidc/routes.js';
import { createAuthService, OidcRefusal, RefreshTokenReused, type Session } from './service.js';

export interface AuthRoutesOptions {
  clock: Clock;
  /** Null when Continue with Google is not configured. */
  google: Omit<GoogleVerifierOptions, 'clock' | 'counters'> | null;
  /** Requests per minute per IP on each auth route. */
  rateLimitPerMinute: number;
  /** Login attempts per account and address per 15 minutes. */
  loginAttemptsPerAccount: number;
  /** Signs the device cookie (derived from the server's secret, app.ts). */
  deviceCookieSecret: Buffer;
  /** A session's absolute lifetime from sign-in, in days. */
  sessionMaxDays: number;
  /** A session not renewed for this many days ends (SESSION_IDLE_DAYS). */
  sessionIdleDays: number;
  /** Whether new accounts may be made (REGISTRATION). */
  registration: 'open' | 'closed';
  /** Generic OpenID Connect (OIDC_*); null when it is off. */
  oidc: OidcConfig | null;
  /** PUBLIC_URL: the OIDC redirect URI is derived from it. */
  publicUrl: string;
  /** Called after an account is registered with the form (sends the verification link). */
  onRegistered?: (
    account: { id: number; username: string; email: string },
    request: FastifyRequest,
  ) => void;
}

const deviceOf = (request: FastifyRequest) => ({
  userAgent: request.headers['user-agent'] ?? null,
});

/**
 * The refresh cookie. Whenever it can be Secure (shared/cookies.ts) it is `__Host-tally_refresh`:
 * browsers take that name only from HTTPS, with Secure, Path=/ and no Domain, so neither a
 * plain-HTTP page nor a sibling subdomain can plant or overwrite it. On http://localhost it is
 * plain `tally_refresh` on /api/auth.
 */
const refreshCookie = (request: FastifyRequest) =>
  isSecureRequest(request)
    ? { name: '__Host-tally_refresh', path: '/', secure: true }
    : { name: 'tally_refresh', path: AUTH_PATH, secure: false };

/** The name a secure refresh cookie had before __Host- (on /api/auth): still read, then cleared. */
const LEGACY_SECURE_COOKIE = '__Secure-tally_refresh';

const presentedRefreshToken = (request: FastifyRequest): string | undefined => {
  const { name, secure } = refreshCookie(request);
  return request.cookies[name] ?? (secure ? request.cookies[LEGACY_SECURE_COOKIE] : undefined);
};

const clearLegacyCookie = (request: FastifyRequest, reply: FastifyReply) => {
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
 * The cookie routes act on the browser's session, so a cross-site page must not trigger them
 * (a simple POST carries SameSite=Strict cookies on some paths to the same site). Browsers say
 * where a request comes from in Sec-Fetch-Site, older ones in Origin; a client that sends
 * neither is not a browser and has no ambient cookie to abuse.
 */
async function sameOriginOnly(request: FastifyRequest): Promise<void> {
  const site = request.headers['sec-fetch-site'];
  const { origin } = request.headers;
  const allowed =
    site !== undefined
      ? site === 'same-origin'
      : origin === undefined || origin === `${request.protocol}://${request.host}`;
  if (!allowed) throw new AppError(403, 'Cross-site requests may not use the session cookie');
}

export const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (app, options) => {
  // Only the auth routes read or set the refresh cookie; elsewhere its hooks would be pure cost.
  await app.register(cookie, { secret: options.deviceCookieSecret });
  const service = createAuthService({
    db: app.db,
    clock: options.clock,
    signAccessToken: (user) => app.accessTokens.sign(user),
    sessionMaxMs: options.sessionMaxDays * 24 * 60 * 60 * 1000,
    sessionIdleMs: options.sessionIdleDays * 24 * 60 * 60 * 1000,
    registration: options.registration,
    // OIDC_ONLY: accounts come from the provider (or the operator's CLI), not the form.
    passwordSignUp: !(options.oidc?.only ?? false),
  });
  const perIp = { max: options.rateLimitPerMinute, timeWindow: '1 minute' };
  const loginLimits = createLoginLimits(app.counters, options.loginAttemptsPerAccount);
  const config = { rateLimit: perIp };

  const sendSession = (request: FastifyRequest, reply: FastifyReply, session: Session) => {
    const { name, path, secure } = refreshCookie(request);
    clearLegacyCookie(request, reply);
    reply.setCookie(name, session.refreshToken, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path,
      // The cookie goes when the session does (SESSION_MAX_DAYS after sign-in).
      maxAge: Math.max(0, Math.floor((session.expiresAt - options.clock()) / 1000)),
    });
    return session.passwordChangeRequired
      ? { accessToken: session.accessToken, passwordChangeRequired: true as const }
      : { accessToken: session.accessToken };
  };
  const clearSession = (request: FastifyRequest, reply: FastifyReply) => {
    const { name, path, secure } = refreshCookie(request);
    clearLegacyCookie(request, reply);
    return reply.clearCookie(name, { path, secure });
  };

  /** Marks this browser as one the account signs in from (kept across sign-outs). */
  const rememberDevice = (request: FastifyRequest, reply: FastifyReply, session: Session) =>
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

  /**
   * Whether the browser carries a device cookie of the account it signs in to. The account is
   * looked up only behind a validly signed cookie, which only a sign-in gives, so a stranger's
   * request costs the same for a known and an unknown username.
   */
  const isKnownDevice = async (request: FastifyRequest, username: string): Promise<boolean> => {
    const raw = request.cookies[deviceCookieName(request)];
    if (!raw) return false;
    const { valid, value } = request.unsignCookie(raw);
    if (!valid || value === null) return false;
    const userId = Number(value.split('.')[0]);
    return Number.isSafeInteger(userId) && userId === (await service.idOf(username));
  };

  addEndpoint(
    app,
    authApi.register,
    async (request, reply) => {
      const session = await service.register(request.body, deviceOf(request));
      const email = request.body.email.trim();
      options.onRegistered?.({ id: session.userId, username: session.username, email }, request);
      rememberDevice(request, reply, session);
      return reply.code(201).send(sendSession(request, reply, session));
    },
    { config },
  );

  addEndpoint(
    app,
    authApi.login,
    async (request, reply) => {
      const { username, password } = request.body;
      try {
        await loginLimits.admit(username, request.ip, await isKnownDevice(request, username));
      } catch (error) {
        request.log.warn(
          { security: 'login-locked', account: username, ip: request.ip },
          'Login refused: too many attempts',
        );
        throw error;
      }
      try {
        const session = await service.login(username, password, deviceOf(request));
        await loginLimits.succeeded(username, request.ip);
        rememberDevice(request, reply, session);
        return sendSession(request, reply, session);
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 401) {
          request.log.warn(
            { security: 'login-failed', account: username, ip: request.ip },
            'Login failed',
          );
        }
        throw error;
      }
    },
    { config },
  );

  const verifyGoogle = options.google
    ? createGoogleVerifier({ ...options.google, clock: options.clock, counters: app.counters })
    : null;

  addEndpoint(
    app,
    authApi.googleNonce,
    async (request, reply) => {
      if (!verifyGoogle)
        throw serviceUnavailable('Sign-in with Google is not configured on this server');
      return { nonce: issueGoogleNonce(request, reply) };
    },
    { config },
  );

  addEndpoint(
    app,
    authApi.google,
    async (request, reply) => {
      if (!verifyGoogle)
        throw serviceUnavailable('Sign-in with Google is not configured on this server');
      const nonce = takeGoogleNonce(request, reply);
      const identity = await verifyGoogle(request.body.token, { nonce });
      const session = await service.googleLogin(identity, deviceOf(request));
      rememberDevice(request, reply, session);
      return sendSession(request, reply, session);
    },
    { config },
  );

  addEndpoint(
    app,
    authApi.refresh,
    async (request, reply) => {
      try {
        const session = await service.refresh(presentedRefreshToken(request));
        return sendSession(request, reply, session);
      } catch (error) {
        if (error instanceof RefreshTokenReused) {
          request.log.warn(
            { security: 'refresh-token-reused', userId: error.userId, ip: request.ip },
            'A spent refresh token came back: its session is ended',
          );
        }
        clearSession(request, reply);
        throw error;
      }
    },
    { config, preHandler: sameOriginOnly },
  );

  registerOidcRoutes(app, {
    clock: options.clock,
    config: options.oidc,
    publicUrl: options.publicUrl,
    rateLimit: perIp,
    signIn: (identity, device, autoRegister) => service.oidcLogin(identity, device, autoRegister),
    isRefusal: (error): error is OidcRefusal => error instanceof OidcRefusal,
    sendSession: (request, reply, session) => {
      rememberDevice(request, reply, session);
      sendSession(request, reply, session);
    },
    presentedRefreshToken,
    clearSession,
    sameOriginOnly,
  });

  addEndpoint(
    app,
    authApi.logout,
    async (request, reply) => {
      await service.logout(presentedRefreshToken(request));
      clearSession(request, reply);
      return reply.code(204).send();
    },
    { config, preHandler: sameOriginOnly },
  );
};
