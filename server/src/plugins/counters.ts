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

/** At most this many keys in memory. */
const MEMORY_KEYS_MAX = 100_000;
/** While the store is full of live keys, it looks for expired ones at most this often. */
const SWEEP_EVERY_MS = 1_000;

/**
 * Counters in this process's memory: the store of a single process, and the fallback. A live
 * counter is never evicted, since evicting it would give back the tries it counted (a flood of
 * fresh keys once evicted every login counter). When the store is full, expired keys are swept;
 * if it is still full, a new key is refused: `hit` answers a count over every limit, `claim`
 * claims nothing, until keys expire. A limit then refuses too much for a while, never too little.
 */
export function memoryCounters(now: () => number): Counters {
  const entries = new Map<string, { count: number; expiresAt: number }>();
  let nextSweepAt = 0;
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  /** Whether a new key fits, after sweeping the expired ones if it is time to. */
  const fits = () => {
    if (entries.size < MEMORY_KEYS_MAX) return true;
    const time = now();
    if (time < nextSweepAt) return false;
    let earliest = Infinity;
    for (const [key, entry] of entries) {
      if (entry.expiresAt <= time) entries.delete(key);
      else earliest = Math.min(earliest, entry.expiresAt);
    }
    nextSweepAt = Math.max(earliest, time + SWEEP_EVERY_MS);
    return entries.size < MEMORY_KEYS_MAX;
  };
  const refusedFor = () => Math.max(SWEEP_EVERY_MS, nextSweepAt - now());
  return {
    async hit(key, windowMs) {
      const entry = live(key);
      if (entry) {
        entry.count += 1;
        return { count: entry.count, ttlMs: entry.expiresAt - now() };
      }
      if (!fits()) return { count: Number.MAX_SAFE_INTEGER, ttlMs: refusedFor() };
      entries.set(key, { count: 1, expiresAt: now() + windowMs });
      return { count: 1, ttlMs: windowMs };
    },
    async claim(key, ttlMs) {
      const entry = live(key);
      if (entry) return { claimed: false, ttlMs: entry.expiresAt - now() };
      if (!fits()) return { claimed: false, ttlMs: refusedFor() };
      entries.set(key, { count: 1, expiresAt: now() + ttlMs });
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

/**
 * Every key gets its expiry, not only a new one: a key left without one (written by an older
 * version, or whose PEXPIRE was lost) would otherwise count for ever and never leave Redis.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

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
