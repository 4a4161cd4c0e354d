import { type AccessTokenResponse, passkeysApi, routes } from '@tally/contract';
import cookie from '@fastify/cookie';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { EndedAccess } from '../auth/end-access.js';
import { addEndpoint } from '../shared/endpoint.js';
import { AppError, notFound } from '../shared/errors.js';
import { PasskeyRefused, type PasskeyService } from './service.js';

/** What the auth routes hand a way to sign in (auth/routes.ts, SignInMethodOptions). */
export interface PasskeySignInOptions {
  config: { rateLimit: { max: number; timeWindow: string } };
  /** Starts the account's session as a password login does (refresh cookie, device cookie). */
  signIn: (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
  ) => Promise<AccessTokenResponse>;
}

/**
 * "Sign in with a passkey" (and the login page's autofill). app.ts hands it to the auth routes
 * (their signInMethods), which own the session cookies, so a passkey sign-in ends exactly as a
 * password login does. A passkey proves possession and user verification at once: a complete
 * multi-factor sign-in, so no second step follows (docs/decisions/082-passkeys.md).
 */
export const passkeySignInRoutes =
  (passkeys: PasskeyService): FastifyPluginAsync<PasskeySignInOptions> =>
  async (app, { config, signIn }) => {
    addEndpoint(
      app,
      passkeysApi.signInOptions,
      async (request, reply) => passkeys.authenticationOptions('sign-in', null, request, reply),
      { config },
    );

    addEndpoint(
      app,
      passkeysApi.signIn,
      async (request, reply) => {
        let userId: number;
        try {
          ({ userId } = await passkeys.verifyAssertion(
            request.body.response,
            'sign-in',
            null,
            request,
          ));
        } catch (error) {
          if (!(error instanceof PasskeyRefused)) throw error;
          request.log.warn(
            {
              security: error.counterWentBack
                ? 'passkey-counter-went-back'
                : 'passkey-login-failed',
              ip: request.ip,
            },
            error.counterWentBack
              ? 'Passkey sign-in refused: its counter went back (a cloned authenticator?)'
              : 'Passkey sign-in refused',
          );
          throw new AppError(401, error.message);
        }
        return signIn(request, reply, userId);
      },
      { config },
    );
  };

export interface PasskeyRoutesOptions {
  passkeys: PasskeyService;
}

/** The challenge cookie's caller is always a signed-in session here (no personal API token). */
const sessionOf = (request: FastifyRequest): string => {
  if (request.user.sessionId === null) {
    throw new AppError(403, 'This call needs a signed-in session');
  }
  return request.user.sessionId;
};

/**
 * Settings → Passkeys: list, add, rename, remove, and proving identity again with one. Adding and
 * removing are `recentAuth` routes (contract/src/routes.ts, decision 071).
 */
export const passkeyRoutes: FastifyPluginAsync<PasskeyRoutesOptions> = async (
  app,
  { passkeys },
) => {
  await app.register(cookie);
  // Removing a passkey was a DELETE without a body, and still may be: it then ends nothing else.
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.url === routes.passkeys.remove.path) request.body ??= {};
  });
  // What else ended with a change (sessions, API tokens, the feed) goes in the log with it.
  const security = (request: FastifyRequest, event: string, message: string, ended?: EndedAccess) =>
    request.log.warn(
      { security: event, userId: request.user.id, ip: request.ip, ...ended },
      message,
    );

  addEndpoint(app, passkeysApi.list, async (request) => passkeys.list(request.user.id));

  addEndpoint(app, passkeysApi.registrationOptions, async (request, reply) => {
    sessionOf(request);
    const options = await passkeys.registrationOptions(request.user.id, request, reply);
    if (!options) throw notFound('Account');
    return options;
  });

  addEndpoint(app, passkeysApi.add, async (request, reply) => {
    const { passkey, ended } = await passkeys.add(
      request.user.id,
      request.user.sessionId,
      request.body,
      request,
    );
    security(request, 'passkey-added', 'Passkey added', ended);
    return reply.code(201).send(passkey);
  });

  addEndpoint(app, passkeysApi.rename, async (request) => {
    const renamed = await passkeys.rename(request.user.id, request.params.id, request.body.name);
    if (!renamed) throw notFound('Passkey');
    return renamed;
  });

  addEndpoint(app, passkeysApi.remove, async (request, reply) => {
    const ended = await passkeys.remove(
      request.user.id,
      request.user.sessionId,
      request.params.id,
      request.body,
    );
    if (!ended) throw notFound('Passkey');
    security(request, 'passkey-removed', 'Passkey removed', ended);
    return reply.code(204).send();
  });

  addEndpoint(app, passkeysApi.reauthenticationOptions, async (request, reply) => {
    sessionOf(request);
    return passkeys.authenticationOptions('reauthenticate', request.user.id, request, reply);
  });

  addEndpoint(app, passkeysApi.reauthenticate, async (request, reply) => {
    const user = { id: request.user.id, sessionId: sessionOf(request) };
    await passkeys.reauthenticate(user, request.body.response, request);
    security(request, 'reauthenticated', 'Identity proved again with a passkey');
    return reply.code(204).send();
  });
};
