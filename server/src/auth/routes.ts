import { AUTH_PATH, authApi } from '@tally/contract';
import cookie from '@fastify/cookie';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { AppError, serviceUnavailable } from '../shared/errors.js';
import { createGoogleVerifier, type GoogleVerifierOptions } from './google-id-token.js';
import { REFRESH_TOKEN_TTL_MS } from './refresh-tokens.js';
import { createAuthService, type Session } from './service.js';

export interface AuthRoutesOptions {
  clock: Clock;
  /** Null when Continue with Google is not configured. */
  google: Omit<GoogleVerifierOptions, 'clock'> | null;
  /** Requests per minute per IP on each auth route. */
  rateLimitPerMinute: number;
  /** Login attempts per account per 15 minutes. */
  loginAttemptsPerAccount: number;
}

const REFRESH_COOKIE = 'tally_refresh';
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (app, options) => {
  // Only the auth routes read or set the refresh cookie; elsewhere its hooks would be pure cost.
  await app.register(cookie);
  const service = createAuthService({
    db: app.db,
    clock: options.clock,
    signAccessToken: (user) => app.accessTokens.sign(user),
  });
  const perIp = { max: options.rateLimitPerMinute, timeWindow: '1 minute' };
  const failedLogins = app.createRateLimit({
    max: options.loginAttemptsPerAccount,
    timeWindow: 15 * 60 * 1000,
    keyGenerator: (request) =>
      `login:${String((request.body as { username?: unknown }).username).toLowerCase()}`,
  });
  const config = { rateLimit: perIp };

  const sendSession = (request: FastifyRequest, reply: FastifyReply, session: Session) => {
    reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
      httpOnly: true,
      sameSite: 'strict',
      // Secure whenever the browser came over HTTPS (also through a proxy that reaches us on
      // localhost), and always off localhost.
      secure: request.protocol === 'https' || !LOCAL_HOSTS.has(request.hostname),
      path: AUTH_PATH,
      maxAge: REFRESH_TOKEN_TTL_MS / 1000,
    });
    return { accessToken: session.accessToken };
  };
  const clearSession = (reply: FastifyReply) =>
    reply.clearCookie(REFRESH_COOKIE, { path: AUTH_PATH });

  addEndpoint(
    app,
    authApi.register,
    async (request, reply) => {
      const session = await service.register(request.body);
      return reply.code(201).send(sendSession(request, reply, session));
    },
    { config },
  );

  addEndpoint(
    app,
    authApi.login,
    async (request, reply) => {
      try {
        const session = await service.login(request.body.username, request.body.password);
        return sendSession(request, reply, session);
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 401) await failedLogins(request);
        throw error;
      }
    },
    {
      config,
      // Failed logins per account: slows guessing one user's password from many addresses.
      preHandler: async (request, reply) => {
        const verdict = await failedLogins(request, { increment: false });
        if (!verdict.isAllowed && verdict.remaining <= 0) {
          reply.header('retry-after', String(Math.max(1, verdict.ttlInSeconds)));
          throw new AppError(
            429,
            `Too many failed logins for this account - try again in ${Math.max(1, verdict.ttlInSeconds)} seconds`,
          );
        }
      },
    },
  );

  const verifyGoogle = options.google
    ? createGoogleVerifier({ ...options.google, clock: options.clock })
    : null;

  addEndpoint(
    app,
    authApi.google,
    async (request, reply) => {
      if (!verifyGoogle)
        throw serviceUnavailable('Sign-in with Google is not configured on this server');
      const identity = await verifyGoogle(request.body.token);
      return sendSession(request, reply, await service.googleLogin(identity));
    },
    { config },
  );

  addEndpoint(
    app,
    authApi.refresh,
    async (request, reply) => {
      try {
        const session = await service.refresh(request.cookies[REFRESH_COOKIE]);
        return sendSession(request, reply, session);
      } catch (error) {
        clearSession(reply);
        throw error;
      }
    },
    { config },
  );

  addEndpoint(
    app,
    authApi.logout,
    async (request, reply) => {
      await service.logout(request.cookies[REFRESH_COOKIE]);
      clearSession(reply);
      return reply.code(204).send();
    },
    { config },
  );
};
