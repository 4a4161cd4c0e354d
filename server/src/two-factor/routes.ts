import { twoFactorApi } from '@tally/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { EndedAccess } from '../auth/end-access.js';
import { addEndpoint } from '../shared/endpoint.js';
import { notFound } from '../shared/errors.js';
import type { TwoFactorService } from './service.js';

export interface TwoFactorRoutesOptions {
  twoFactor: TwoFactorService;
}

/**
 * Settings → Two-factor (docs/decisions/081-two-factor-codes.md). Starting the setup, turning the
 * codes on and turning them off are `recentAuth` routes (contract/src/routes.ts): a stolen access
 * token can neither add its own authenticator nor remove the owner's.
 */
export const twoFactorRoutes: FastifyPluginAsync<TwoFactorRoutesOptions> = async (
  app,
  { twoFactor },
) => {
  // What else ended with the change (sessions, API tokens, the feed) goes in the log with it.
  const security = (request: FastifyRequest, event: string, message: string, ended: EndedAccess) =>
    request.log.warn(
      { security: event, userId: request.user.id, ip: request.ip, ...ended },
      message,
    );

  addEndpoint(app, twoFactorApi.status, async (request) => twoFactor.status(request.user.id));

  addEndpoint(app, twoFactorApi.setup, async (request) => {
    const account = await app.db
      .selectFrom('users')
      .select('username')
      .where('id', '=', request.user.id)
      .executeTakeFirst();
    if (!account) throw notFound('Account');
    return twoFactor.setup(request.user.id, account.username);
  });

  addEndpoint(app, twoFactorApi.enable, async (request, reply) => {
    const { recoveryCodes, ended } = await twoFactor.enable(
      request.user.id,
      request.user.sessionId,
      request.body,
    );
    security(request, 'two-factor-enabled', 'Two-factor codes turned on', ended);
    return reply.code(201).send({ recoveryCodes });
  });

  addEndpoint(app, twoFactorApi.disable, async (request, reply) => {
    const ended = await twoFactor.disable(request.user.id, request.user.sessionId, request.body);
    security(request, 'two-factor-disabled', 'Two-factor codes turned off', ended);
    return reply.code(204).send();
  });
};
