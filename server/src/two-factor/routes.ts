import { twoFactorApi } from '@tally/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
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
  const security = (request: FastifyRequest, event: string, message: string) =>
    request.log.warn({ security: event, userId: request.user.id, ip: request.ip }, message);

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
    const recoveryCodes = await twoFactor.enable(request.user.id, request.body.code);
    security(request, 'two-factor-enabled', 'Two-factor codes turned on');
    return reply.code(201).send({ recoveryCodes });
  });

  addEndpoint(app, twoFactorApi.disable, async (request, reply) => {
    await twoFactor.disable(request.user.id, request.body);
    security(request, 'two-factor-disabled', 'Two-factor codes turned off');
    return reply.code(204).send();
  });
};
