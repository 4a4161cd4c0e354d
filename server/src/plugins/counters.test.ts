import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  redisUrl,
  type TestContext,
  untilCountersInRedis,
} from '../test/helpers.js';
import { memoryCounters } from './counters.js';

const MINUTE = 60_000;
const WINDOW = 15 * MINUTE;

describe('counters in memory', () => {
  it('keep a spent limit through a flood of new keys, and refuse new keys while full', async () => {
    let time = 0;
    const counters = memoryCounters(() => time);
    for (let i = 0; i < 10; i += 1) await counters.hit('login:victim', WINDOW);
    await counters.claim('login-gate:victim', MINUTE);

    // As many fresh keys as the store holds, and more: failed sign-ins with made-up names.
    for (let i = 0; i < 100_500; i += 1) await counters.hit(`login:flood-${i}`, WINDOW);

    expect(await counters.hit('login:victim', WINDOW)).toMatchObject({ count: 11 });
    expect(await counters.claim('login-gate:victim', MINUTE)).toMatchObject({ claimed: false });
    const refused = await counters.hit('login:newcomer', WINDOW);
    expect(refused.count).toBeGreaterThan(1_000_000);
    expect(refused.ttlMs).toBeGreaterThan(0);
    expect(await counters.claim('login-gate:newcomer', MINUTE)).toMatchObject({ claimed: false });

    // Once the flood's windows end, new keys fit again.
    time += WINDOW;
    expect(await counters.hit('login:newcomer', WINDOW)).toEqual({ count: 1, ttlMs: WINDOW });
  });
});

describe.skipIf(!redisUrl)('counters in Redis', () => {
  let redis: Redis;
  let ctx: TestContext;
  beforeAll(async () => {
    redis = new Redis(redisUrl ?? '');
    ctx = await createTestApp({ config: { redisUrl } });
    await untilCountersInRedis(ctx, redis);
  });
  afterAll(async () => {
    redis.disconnect();
    await ctx.close();
  });

  it('give a key found without an expiry one at its next hit', async () => {
    const key = `limits-test:${randomBytes(8).toString('hex')}`;
    await redis.set(`tally:limits:${key}`, '5');
    expect(await ctx.app.counters.hit(key, MINUTE)).toEqual({ count: 6, ttlMs: MINUTE });
    const ttl = await redis.pttl(`tally:limits:${key}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(MINUTE);
  });
});
