import { ErrorSchema, HealthSchema, PublicConfigSchema, type PublicConfig } from '@tally/contract';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { serviceUnavailable } from '../shared/errors.js';

export interface SystemRoutesOptions {
  publicConfig: PublicConfig;
}

const HEALTH_TIMEOUT_MS = 2_000;

export const systemRoutes: FastifyPluginAsync<SystemRoutesOptions> = async (
  fastify,
  { publicConfig },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { public: true };

  app.get(
    '/config',
    {
      config,
      schema: {
        tags: ['system'],
        summary: 'Public settings the browser needs',
        security: [],
        response: { 200: PublicConfigSchema },
      },
    },
    async () => publicConfig,
  );

  app.get(
    '/health',
    {
      config,
      schema: {
        tags: ['system'],
        summary: 'Whether the server and its database answer',
        security: [],
        response: { 200: HealthSchema, 503: ErrorSchema },
      },
    },
    async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), HEALTH_TIMEOUT_MS);
      });
      try {
        await Promise.race([sql`select 1`.execute(app.db), timeout]);
      } catch {
        throw serviceUnavailable('The database is not answering');
      } finally {
        clearTimeout(timer);
      }
      return { status: 'ok' as const };
    },
  );
};
