import { systemApi, type PublicConfig } from '@tally/contract';
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { addEndpoint } from '../shared/endpoint.js';
import { serviceUnavailable } from '../shared/errors.js';

export interface SystemRoutesOptions {
  /** The settings of /api/config but the one that changes with the data. */
  publicConfig: Omit<PublicConfig, 'setupTokenRequired'>;
  /** Whether the first account still needs SETUP_TOKEN (auth/setup-token.ts). */
  setupPending: () => Promise<boolean>;
}

const HEALTH_TIMEOUT_MS = 2_000;

/** Resolves with `work`, or rejects once HEALTH_TIMEOUT_MS have passed without an answer. */
async function withinTimeout(work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), HEALTH_TIMEOUT_MS);
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export const systemRoutes: FastifyPluginAsync<SystemRoutesOptions> = async (
  app,
  { publicConfig, setupPending },
) => {
  addEndpoint(app, systemApi.config, async () => ({
    ...publicConfig,
    setupTokenRequired: await setupPending(),
  }));

  addEndpoint(app, systemApi.health, async () => {
    try {
      await withinTimeout(sql`select 1`.execute(app.db));
    } catch {
      throw serviceUnavailable('The database is not answering');
    }
    return { status: 'ok' as const };
  });

  // For orchestrators (docs/decisions/129-health-for-orchestrators.md), beside the API as
  // /metrics is: liveness says only that the process answers, so a database outage does not get
  // the container restarted; readiness says whether requests can be served now.
  app.get('/healthz', { config: { public: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );
  app.get('/readyz', { config: { public: true } }, async (request, reply) => {
    const checks: Record<string, 'ok' | 'failing'> = {};
    const probe = async (name: string, work: () => Promise<unknown>) => {
      try {
        await withinTimeout(work());
        checks[name] = 'ok';
      } catch (error) {
        request.log.warn({ err: error, check: name }, 'Readiness check failed');
        checks[name] = 'failing';
      }
    };
    const { redisPing } = app;
    await Promise.all([
      probe('database', () => sql`select 1`.execute(app.db)),
      ...(redisPing ? [probe('redis', redisPing)] : []),
    ]);
    const ready = Object.values(checks).every((state) => state === 'ok');
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? 'ok' : 'failing', checks });
  });
};
