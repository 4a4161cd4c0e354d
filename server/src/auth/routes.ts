import { type AccessTokenResponse, authApi } from '@tally/contract';
import cookie from '@fastify/cookie';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { namedTimeZoneOf } from '../shared/time-zone.js';
import { addEndpoint } from '../shared/endpoint.js';
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
import type { SetupGate } from './setup-token.js';
import { createAuthService, OidcRefusal, RefreshTokenReused } from './service.js';
import {
  clearLegacyCookie,
  createSignIn,
  deviceUserId,
  LEGACY_SECURE_COOKIE,
  refreshCookie,
} from './sign-in.js';
import type { TwoFactorService } from '../two-factor/service.js';

export interface AuthRoutesOptions {
  clock: Clock;
  /** Null when Continue with Google is not configured. */
  google: Omit<GoogleVerifierOptions, 'clock' | 'counters'> | null;
  /** Requests per minute per IP on each auth route. */
  rateLimitPerMinute: number;
  /** Login attempts per account and address per 15 minutes. */
  loginAttemptsPerAccount: number;
  /** Two-factor codes: whether a sign-in needs a second step, and its checks. */
  twoFactor: TwoFactorService;
  /** TRUST_PROVIDER_MFA: a provider's amr "mfa" stands for Tally's second step. */
  trustProviderMfa: boolean;
  /** Signs the device cookie (derived from the server's secret, app.ts). */
  deviceCookieSecret: Buffer;
  /** A session's absolute lifetime from sign-in, in days. */
  sessionMaxDays: number;
  /** A session not renewed for this many days ends (SESSION_IDLE_DAYS). */
  sessionIdleDays: number;
  /** Whether new accounts may be made (REGISTRATION). */
  registration: 'open' | 'closed';
  /** SETUP_TOKEN's gate on the first account. */
  setupGate: SetupGate;
  /**
   * Further ways to sign in (passkeys: server/src/passkeys), registered inside these routes so
   * that they end with the same session and cookies as a password login.
   */
  signInMethods?: FastifyPluginAsync<SignInMethodOptions>[];
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

/** What a further way to sign in gets: the auth routes' rate limit, and a way to end in a session. */
interface SignInMethodOptions {
  config: { rateLimit: { max: number; timeWindow: string } };
  /**
   * Signs in the account it proved, as a password login does (refresh cookie, device cookie):
   * a complete sign-in, with no one-time-password prompt.
   */
  signIn: (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
  ) => Promise<AccessTokenResponse>;
}

const deviceOf = (request: FastifyRequest) => ({
  userAgent: request.headers['user-agent'] ?? null,
  timeZone: namedTimeZoneOf(request),
});

const presentedRefreshToken = (request: FastifyRequest): string | undefined => {
  const { name, secure } = refreshCookie(request);
  return request.cookies[name] ?? (secure ? request.cookies[LEGACY_SECURE_COOKIE] : undefined);
};

/**
 * The cookie routes act on the browser's session, so a cross-site page must not trigger them
 * (a simple POST carries SameSite=Strict cookies on some paths to the same site). Browsers say
 * where a request comes from in Sec-Fetch-Site, older ones in Origin; a client that sends
 * neither is not a browser and has no ambient cookie to abuse.
 */
export async function sameOriginOnly(request: FastifyRequest): Promise<void> {
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
    setupGate: options.setupGate,
    // OIDC_ONLY: accounts come from the provider (or the operator's CLI), not the form.
    passwordSignUp: !(options.oidc?.only ?? false),
  });
  const perIp = { max: options.rateLimitPerMinute, timeWindow: '1 minute' };
  const loginLimits = createLoginLimits(app.counters, options.loginAttemptsPerAccount);
  const config = { rateLimit: perIp };

  const signIn = createSignIn({
    service,
    twoFactor: options.twoFactor,
    loginLimits,
    counters: app.counters,
    clock: options.clock,
    trustProviderMfa: options.trustProviderMfa,
  });
  const clearSession = (request: FastifyRequest, reply: FastifyReply) => {
    const { name, path, secure } = refreshCookie(request);
    clearLegacyCookie(request, reply);
    return reply.clearCookie(name, { path, secure });
  };

  /**
   * Whether the browser carries a device cookie of the account it signs in to. The account is
   * looked up only behind a validly signed cookie, which only a sign-in gives, so a stranger's
   * request costs the same for a known and an unknown username.
   */
  const isKnownDevice = async (request: FastifyRequest, username: string): Promise<boolean> => {
    const userId = deviceUserId(request);
    return userId !== null && userId === (await service.idOf(username));
  };

  addEndpoint(
    app,
    authApi.register,
    async (request, reply) => {
      const session = await service.register(request.body, deviceOf(request));
      const email = request.body.email.trim();
      options.onRegistered?.({ id: session.userId, username: session.username, email }, request);
      // A new account has no second factor: this is the end of its sign-in.
      return reply.code(201).send(signIn.finishComplete(request, reply, session));
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
        const user = await service.login(username, password);
        return await signIn.signIn(request, reply, user, { kind: 'password' });
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
      const entry = await service.googleLogin(identity, deviceOf(request));
      if ('created' in entry) return signIn.finishComplete(request, reply, entry.created);
      return signIn.signIn(request, reply, entry.existing, {
        kind: 'google',
        providerDidMfa: identity.didMfa,
      });
    },
    { config },
  );

  addEndpoint(
    app,
    authApi.mfa,
    async (request, reply) => {
      try {
        return await signIn.completeSecondStep(request, reply, request.body);
      } catch (error) {
        if (error instanceof AppError && (error.statusCode === 401 || error.statusCode === 429)) {
          request.log.warn(
            { security: 'second-factor-failed', ip: request.ip, status: error.statusCode },
            'Second step of a sign-in refused',
          );
        }
        throw error;
      }
    },
    { config, preHandler: sameOriginOnly },
  );

  addEndpoint(
    app,
    authApi.refresh,
    async (request, reply) => {
      try {
        const session = await service.refresh(presentedRefreshToken(request), deviceOf(request));
        return signIn.sendSession(request, reply, session);
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
    signIn: async (request, reply, identity, autoRegister, providerDidMfa) => {
      const entry = await service.oidcLogin(identity, deviceOf(request), autoRegister);
      const started =
        'created' in entry
          ? { session: entry.created }
          : await signIn.begin(request, reply, entry.existing, { kind: 'oidc', providerDidMfa });
      if ('session' in started) await signIn.finish(request, reply, started.session, 'oidc');
      return started;
    },
    isRefusal: (error): error is OidcRefusal => error instanceof OidcRefusal,
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

  for (const method of options.signInMethods ?? []) {
    await app.register(method, {
      config,
      signIn: async (request, reply, userId) => {
        // A passkey is two factors in itself (possession and user verification): no second step.
        // A forward-auth proxy did the whole sign-in, its own second factor included.
        const session = await service.signInAs(userId, deviceOf(request));
        return signIn.finishComplete(request, reply, session);
      },
    });
  }
};
