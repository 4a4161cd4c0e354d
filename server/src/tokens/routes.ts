import { tokensApi } from '@tally/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { notFound } from '../shared/errors.js';
import { createTokenService } from './service.js';

/**
 * Settings → API tokens (docs/product.md, API tokens). Under /api/account, so only a signed-in
 * session reaches them: a personal token cannot make, list or revoke tokens.
 */
export const tokenRoutes: FastifyPluginAsync<{ clock: Clock }> = async (app, { clock }) => {
  const service = createTokenService({ db: app.db, clock });

  addEndpoint(app, tokensApi.list, async (request) => service.list(request.user.id));

  addEndpoint(app, tokensApi.create, async (request, reply) => {
    const created = await service.create(request.user.id, request.body);
    request.log.warn(
      {
        security: 'api-token-created',
        userId: request.user.id,
        ip: request.ip,
        tokenId: created.id,
      },
      `Personal API token made (${created.scope})`,
    );
    return reply.code(201).send(created);
  });

  addEndpoint(app, tokensApi.revoke, async (request, reply) => {
    if (!(await service.revoke(request.user.id, request.params.id))) throw notFound('Token');
    request.log.warn(
      {
        security: 'api-token-revoked',
        userId: request.user.id,
        ip: request.ip,
        tokenId: request.params.id,
      },
      'Personal API token revoked',
    );
    return reply.code(204).send();
  });
};
