import { systemApi, type PublicConfig } from '@tally/contract';
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { addEndpoint } from '../shared/endpoint.js';
import { serviceUnavailable } from '../shared/errors.js';

export interface SystemRoutesOptions {
  publicConfig: PublicConfig;
}

const HEALTH_TIMEOUT_MS = 2_000;

export const systemRoutes: FastifyPluginAsync<SystemRoutesOptions> = async (
  app,
  { publicConfig },
) => {
  addEndpoint(app, systemApi.config, async () => publicConfig);

  addEndpoint(app, systemApi.health, async () => {
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
  });
};
