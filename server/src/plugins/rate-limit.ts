import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { AppError } from '../shared/errors.js';

export interface RateLimitPluginOptions {
  /** Shared counters across processes; in-memory when null. */
  redisUrl: string | null;
}

/**
 * Rate limiting is opt-in per route (`config.rateLimit`); the auth routes use it. Counters live
 * in Redis when REDIS_URL is set, so limits hold across processes.
 */
export const rateLimitPlugin = fp<RateLimitPluginOptions>(
  async (app, { redisUrl }) => {
    const redis = redisUrl
      ? new Redis(redisUrl, { connectTimeout: 2_000, maxRetriesPerRequest: 1 })
      : undefined;
    if (redis) app.addHook('onClose', async () => void (await redis.quit()));
    await app.register(rateLimit, {
      global: false,
      ...(redis ? { redis, skipOnError: true } : {}),
      errorResponseBuilder: (_request, context) =>
        new AppError(context.statusCode, `Too many attempts - try again in ${context.after}`),
    });
  },
  { name: 'rate-limit' },
);
