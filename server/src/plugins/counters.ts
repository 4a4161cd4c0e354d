import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** A counter's state: hits in the current window and the milliseconds the window has left. */
interface Count {
  count: number;
  ttlMs: number;
}

/**
 * Expiring counters for rate limits, shared by every process when they live in Redis. Each
 * operation is atomic, so parallel requests cannot all read "under the limit" before any of them
 * is counted.
 */
export interface Counters {
  /** Adds one to `key` (starting a window of `windowMs` on the first hit) and answers the count. */
  hit(key: string, windowMs: number): Promise<Count>;
  /** Sets `key` for `ttlMs` unless it is set; `claimed` is true for the one call that set it. */
  claim(key: string, ttlMs: number): Promise<{ claimed: boolean; ttlMs: number }>;
  /** Whether `key` is set (and not expired), without touching it. */
  has(key: string): Promise<boolean>;
  reset(...keys: string[]): Promise<void>;
}

/** At most this many live keys in memory; the oldest go first (a flood of fresh keys). */
const MEMORY_KEYS_MAX = 100_000;

/** Counters in this process's memory: the store of a single process, and the fallback. */
export function memoryCounters(now: () => number): Counters {
  const entries = new Map<string, { count: number; expiresAt: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const add = (key: string, entry: { count: number; expiresAt: number }) => {
    if (entries.size >= MEMORY_KEYS_MAX) {
      const oldest = entries.keys().next();
      if (!oldest.done) entries.delete(oldest.value);
    }
    entries.set(key, entry);
  };
  return {
    async hit(key, windowMs) {
      const entry = live(key);
      if (!entry) {
        add(key, { count: 1, expiresAt: now() + windowMs });
        return { count: 1, ttlMs: windowMs };
      }
      entry.count += 1;
      return { count: entry.count, ttlMs: entry.expiresAt - now() };
    },
    async claim(key, ttlMs) {
      const entry = live(key);
      if (entry) return { claimed: false, ttlMs: entry.expiresAt - now() };
      add(key, { count: 1, expiresAt: now() + ttlMs });
      return { claimed: true, ttlMs };
    },
    async has(key) {
      return live(key) !== undefined;
    },
    async reset(...keys) {
      for (const key of keys) entries.delete(key);
    },
  };
}

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

/** Counters in Redis, for every process at once. */
function redisCounters(redis: Redis, prefix: string): Counters {
  return {
    async hit(key, windowMs) {
      const [count, ttlMs] = (await redis.eval(HIT_SCRIPT, 1, prefix + key, windowMs)) as [
        number,
        number,
      ];
      return { count, ttlMs: Math.max(0, ttlMs) };
    },
    async claim(key, ttlMs) {
      if ((await redis.set(prefix + key, '1', 'PX', ttlMs, 'NX')) === 'OK') {
        return { claimed: true, ttlMs };
      }
      return { claimed: false, ttlMs: Math.max(0, await redis.pttl(prefix + key)) };
    },
    async has(key) {
      return (await redis.exists(prefix + key)) === 1;
    },
    async reset(...keys) {
      if (keys.length > 0) await redis.del(...keys.map((key) => prefix + key));
    },
  };
}

/**
 * Redis counters that fall back to this process's memory while Redis fails: a limit is then
 * per process for a while, never gone (a failed store would otherwise let every request in).
 */
export function sharedCounters(redis: Redis, log: FastifyBaseLogger, now: () => number): Counters {
  const shared = redisCounters(redis, 'tally:limits:');
  const local = memoryCounters(now);
  let failing = false;
  const withFallback =
    <A extends unknown[], R>(operation: (counters: Counters) => (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        const result = await operation(shared)(...args);
        if (failing) log.warn('Redis answers again: rate limits are shared between processes');
        failing = false;
        return result;
      } catch (error) {
        if (!failing) {
          log.warn({ err: error }, 'Redis failed: rate limits fall back to this process');
        }
        failing = true;
        return operation(local)(...args);
      }
    };
  return {
    hit: withFallback((counters) => counters.hit),
    claim: withFallback((counters) => counters.claim),
    has: withFallback((counters) => counters.has),
    reset: withFallback((counters) => counters.reset),
  };
}
