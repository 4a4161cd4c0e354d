import rateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { type Counters, memoryCounters, sharedCounters } from './counters.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Expiring counters for limits of Tally's own (failed logins per account). */
    counters: Counters;
    /** Asks Redis for a PONG (GET /readyz); null when REDIS_URL is unset. */
    redisPing: (() => Promise<unknown>) | null;
  }
}

export interface RateLimitPluginOptions {
  /** Shared counters across processes; in this process's memory when null. */
  redisUrl: string | null;
  /** Time for the in-memory counters (Redis keeps its own). */
  clock: Clock;
}

/** @fastify/rate-limit's store interface over Tally's counters, one key space per route. */
function storeOf(counters: Counters): FastifyRateLimitStoreCtor {
  return class CountersStore implements FastifyRateLimitStore {
    // The plugin constructs the store with its options, which the counters do not need.
    constructor(
      _options?: unknown,
      private readonly prefix = 'route:',
    ) {}

    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      counters.hit(this.prefix + key, timeWindow).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // Typed as route options, but the plugin passes its merged settings, the route in routeInfo.
      const { routeInfo } = routeOptions as { routeInfo?: { method?: unknown; url?: string } };
      const { method, url } = routeInfo ?? {};
      return new CountersStore(undefined, `${this.prefix}${String(method)}${String(url)}:`);
    }
  };
}

type StoreCallback = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * Rate limiting is opt-in per route (`config.rateLimit`); the auth routes use it. Counters live
 * in Redis when REDIS_URL is set, so limits hold across processes; while Redis fails they fall
 * back to the process's memory instead of letting every request through.
 */
export const rateLimitPlugin = fp<RateLimitPluginOptions>(
  async (app, { redisUrl, clock }) => {
    let counters = memoryCounters(clock);
    let redisPing: (() => Promise<unknown>) | null = null;
    if (redisUrl) {
      // Loaded only with REDIS_URL: without it, its modules would hold heap for nothing
      // (docs/performance.md, Memory).
      const { Redis } = await import('ioredis');
      // No offline queue: while Redis is away a command fails at once and the fallback answers.
      const redis = new Redis(redisUrl, {
        connectTimeout: 2_000,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
      });
      redis.on('error', () => undefined);
      app.addHook('onClose', async () => void (await redis.quit().catch(() => undefined)));
      counters = sharedCounters(redis, app.log, clock);
      // Without the offline queue a PING sent while connecting fails at once: a readiness probe
      // right after start waits for the connection instead (its caller bounds the wait). One
      // shared wait, so probes during a long outage do not pile up listeners.
      let connected: Promise<void> | null = null;
      redisPing = async () => {
        if (redis.status !== 'ready') {
          connected ??= new Promise<void>((resolve) =>
            redis.once('ready', () => {
              connected = null;
              resolve();
            }),
          );
          await connected;
        }
        return redis.ping();
      };
    }
    app.decorate('counters', counters);
    app.decorate('redisPing', redisPing);
    await app.register(rateLimit, {
      global: false,
      store: storeOf(counters),
      errorResponseBuilder: (_request, context) =>
        new AppError(context.statusCode, `Too many attempts - try again in ${context.after}`),
    });
  },
  { name: 'rate-limit' },
);
