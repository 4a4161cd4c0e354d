import { accountApi, authApi, oidcApi } from '@tally/contract';
import cookie from '@fastify/cookie';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  createGoogleVerifier,
  type GoogleVerifierOptions,
  takeGoogleNonce,
} from '../auth/google-id-token.js';
import { forgetFailedLogins } from '../auth/login-limits.js';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { periodicJob, runInBackground } from '../shared/periodic-job.js';
import { AppError, notFound } from '../shared/errors.js';
import { deleteAccount } from './deletion.js';
import { type EmailLinks, sweepTokens } from './email-links.js';
import { createEmailService } from './email.js';
import { createIdentities, unlinkOidc } from './identities.js';
import { createIdentityProof, type GoogleCheck } from './identity-proof.js';
import { createPasswordService } from './password.js';
import { setPreferences } from './preferences.js';
import { signedInAccount } from './rows.js';
import { createSessionService } from './sessions.js';

export interface AccountRoutesOptions {
  clock: Clock;
  links: EmailLinks;
  /** Null when Continue with Google is not configured. */
  google: Omit<GoogleVerifierOptions, 'clock' | 'counters'> | null;
  /** Requests per minute per IP on each public route, as on the other auth routes. */
  rateLimitPerMinute: number;
  /** Sessions not renewed for this many days are over (SESSION_IDLE_DAYS): not listed. */
  sessionIdleDays: number;
  /** Sweep spent and expired e-mail tokens in the background (the server does; tests call it). */
  sweep: boolean;
}

const MINUTE_MS = 60_000;

const accountGone = () => notFound('Account');

/**
 * The caller's session. Only a session reaches /api/account: the authentication hook refuses a
 * personal API token there (server/src/plugins/personal-tokens.ts), so this never throws.
 */
const sessionOf = (request: FastifyRequest): string => {
  if (request.user.sessionId === null)
    throw new AppError(403, 'This call needs a signed-in session');
  return request.user.sessionId;
};

/**
 * Settings of the signed-in account (docs/product.md, Accounts) and the public calls of e-mailed
 * links (verify the address, reset the password). Every change that matters to security is
 * logged at warn with the account and address, never a password or token.
 */
export const accountRoutes: FastifyPluginAsync<AccountRoutesOptions> = async (app, options) => {
  // Google credentials are checked against the nonce cookie of the browser that sends them.
  await app.register(cookie);
  const verifier = options.google
    ? createGoogleVerifier({ ...options.google, clock: options.clock, counters: app.counters })
    : null;
  const googleOf = (request: FastifyRequest, reply: FastifyReply): GoogleCheck =>
    verifier ? (token) => verifier(token, { nonce: takeGoogleNonce(request, reply) }) : null;
  const { db, counters } = app;
  const { clock, links } = options;
  const proof = createIdentityProof({ db, clock, counters });
  const password = createPasswordService({ db, clock, links, counters, proof });
  const email = createEmailService({ db, clock, links, counters, proof });
  const identities = createIdentities({ db, clock, proof });
  const sessions = createSessionService({
    db,
    clock,
    sessionIdleMs: options.sessionIdleDays * 24 * MINUTE_MS * 60,
  });
  const config = { rateLimit: { max: options.rateLimitPerMinute, timeWindow: '1 minute' } };
  const security = (request: FastifyRequest, event: string, message: string, userId?: number) =>
    request.log.warn(
      { security: event, userId: userId ?? request.user.id, ip: request.ip },
      message,
    );

  addEndpoint(app, accountApi.get, async (request) => {
    const account = await signedInAccount(db, request.user.id);
    if (!account) throw accountGone();
    return account;
  });

  addEndpoint(app, accountApi.setPreferences, async (request) => {
    const preferences = await setPreferences(db, request.user.id, request.body);
    if (!preferences) throw accountGone();
    return preferences;
  });

  addEndpoint(app, accountApi.changePassword, async (request, reply) => {
    const user = { id: request.user.id, sessionId: sessionOf(request) };
    const changed = await password.changePassword(user, request.body);
    if (!changed) throw accountGone();
    request.log.warn(
      { security: 'password-changed', userId: request.user.id, ip: request.ip, ...changed },
      'Password changed; the other sessions are ended',
    );
    return reply.code(204).send();
  });

  addEndpoint(app, accountApi.reauthenticate, async (request, reply) => {
    const user = { id: request.user.id, sessionId: sessionOf(request) };
    if (!(await proof.reauthenticate(user, request.body, googleOf(request, reply)))) {
      throw accountGone();
    }
    security(request, 'reauthenticated', 'Identity proved again for sensitive changes');
    return reply.code(204).send();
  });

  addEndpoint(app, accountApi.changeEmail, async (request) => {
    const outcome = await email.changeEmail(request.user.id, request.body, request.log);
    if (!outcome) throw accountGone();
    if (outcome.changed) security(request, 'email-changed', 'E-mail address changed');
    return outcome.account;
  });

  addEndpoint(app, accountApi.resendVerification, async (request, reply) => {
    if (!(await email.resendVerification(request.user.id, request.log))) throw accountGone();
    return reply.code(202).send();
  });

  addEndpoint(app, accountApi.linkGoogle, async (request, reply) => {
    const account = await identities.linkGoogle(
      request.user.id,
      request.body.token,
      googleOf(request, reply),
    );
    if (!account) throw accountGone();
    security(request, 'google-linked', 'Google account linked');
    return account;
  });

  addEndpoint(app, accountApi.unlinkGoogle, async (request, reply) => {
    const unlinked = await identities.unlinkGoogle(request.user.id);
    if (unlinked === null) throw accountGone();
    if (unlinked) security(request, 'google-unlinked', 'Google account unlinked');
    return reply.code(204).send();
  });

  addEndpoint(app, oidcApi.unlink, async (request, reply) => {
    const unlinked = await unlinkOidc(db, request.user.id);
    if (unlinked === null) throw accountGone();
    if (unlinked) security(request, 'oidc-unlinked', 'OpenID Connect account unlinked');
    return reply.code(204).send();
  });

  addEndpoint(app, accountApi.sessions, async (request) =>
    sessions.sessions(request.user.id, sessionOf(request)),
  );

  addEndpoint(app, accountApi.endSession, async (request, reply) => {
    if (!(await sessions.endOne(request.user.id, request.params.id))) throw notFound('Session');
    request.log.warn(
      { security: 'session-ended', userId: request.user.id, ip: request.ip },
      'A session was ended by its user',
    );
    return reply.code(204).send();
  });

  addEndpoint(app, accountApi.endOtherSessions, async (request, reply) => {
    const ended = await sessions.endOthers(request.user.id, sessionOf(request));
    request.log.warn(
      { security: 'sessions-ended', userId: request.user.id, ip: request.ip, sessions: ended },
      'Every other session was ended by its user',
    );
    return reply.code(204).send();
  });

  addEndpoint(app, accountApi.remove, async (request, reply) => {
    const removed = await deleteAccount(
      db,
      proof,
      request.user.id,
      request.body,
      googleOf(request, reply),
      request.user.sessionId,
    );
    if (!removed) throw accountGone();
    request.log.warn(
      { security: 'account-deleted', userId: request.user.id, ip: request.ip },
      `Account ${request.user.username} deleted with everything it owned`,
    );
    return reply.code(204).send();
  });

  // The public calls of e-mailed links, rate limited per address like the other auth routes.

  addEndpoint(
    app,
    authApi.verifyEmail,
    async (request, reply) => {
      const { userId } = await email.verifyEmail(request.body.token);
      request.log.info({ userId }, 'E-mail address verified');
      return reply.code(204).send();
    },
    { config },
  );

  addEndpoint(
    app,
    authApi.verifyEmailAccount,
    async (request) => email.verificationAccount(request.body.token),
    { config },
  );

  addEndpoint(
    app,
    authApi.requestPasswordReset,
    async (request, reply) => {
      // Everything happens after the answer: it is the same, in the same time, for an address
      // that has an account and one that has none.
      const { email } = request.body;
      const { ip, log } = request;
      options.links.later(log, 'A password-reset request', () =>
        password.requestPasswordReset(email, log, ip),
      );
      return reply.code(202).send();
    },
    { config },
  );

  addEndpoint(
    app,
    authApi.resetPassword,
    async (request, reply) => {
      const { userId, username, sessionsEnded, apiTokens, calendarFeed, unlinked } =
        await password.resetPassword(request.body.token, request.body.password);
      await forgetFailedLogins(app.counters, username, request.ip);
      request.log.warn(
        {
          security: 'password-reset',
          userId,
          ip: request.ip,
          sessionsEnded,
          apiTokens,
          calendarFeed,
          unlinked,
        },
        'Password reset by e-mail link; every session, API token and the calendar feed are ended',
      );
      return reply.code(204).send();
    },
    { config },
  );

  if (options.sweep) {
    const job = periodicJob({
      db: app.db,
      clock: options.clock,
      name: 'email-token-sweep',
      everyMs: 6 * 60 * MINUTE_MS,
      leaseMs: 10 * MINUTE_MS,
      run: async () => {
        const swept = await sweepTokens(db, clock());
        app.log.info({ swept }, 'e-mail token sweep: deleted spent and expired link tokens');
      },
    });
    runInBackground(app, job, 30 * MINUTE_MS, 'e-mail token sweep');
  }
};
