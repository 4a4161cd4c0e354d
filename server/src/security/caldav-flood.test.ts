import { randomBytes, randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  redisUrl,
  type TestContext,
  untilCountersInRedis,
} from '../test/helpers.js';

/**
 * Failed CalDAV sign-ins (HTTP Basic on /dav) from one address, each with a made-up name: the
 * address is limited before any name writes a counter, and what the names do write is short and
 * expires, in memory and in Redis.
 */

const ATTEMPTS = 3;
/** A fresh IPv6 /64 per run, so counters left in Redis by an earlier run do not count. */
const freshAddress = () => {
  const prefix = `2001:db8:${randomInt(1, 0xffff).toString(16)}:${randomInt(1, 0xffff).toString(16)}`;
  return { ip: `${prefix}::1`, block: `${prefix}::/64` };
};

const failedSignIn = (ctx: TestContext, ip: string, name: string) =>
  ctx.app.inject({
    method: 'PROPFIND',
    url: '/dav/',
    remoteAddress: ip,
    headers: {
      authorization: `Basic ${Buffer.from(`${name}:tally_pat_wrong`).toString('base64')}`,
    },
  });

async function flood(ctx: TestContext, ip: string, marker: string, requests: number) {
  const statuses: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    const name = `${marker}-${i}-${'x'.repeat(2_000)}`;
    statuses.push((await failedSignIn(ctx, ip, name)).statusCode);
  }
  return statuses;
}

const expected = (requests: number) => {
  const allowed = ATTEMPTS * 3;
  return [...Array<number>(allowed).fill(401), ...Array<number>(requests - allowed).fill(429)];
};

describe('failed CalDAV sign-ins with made-up names from one address', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ config: { loginAttemptsPerAccount: ATTEMPTS } });
  });
  afterAll(() => ctx.close());

  it('answer 429 past three times the per-account limit, naming the address', async () => {
    const { ip } = freshAddress();
    expect(await flood(ctx, ip, 'made-up', 20)).toEqual(expected(20));
    const refused = await failedSignIn(ctx, ip, 'one-more');
    expect(refused.json()).toEqual({
      error: expect.stringMatching(
        /^Too many failed logins from this address - try again in \d+ seconds$/,
      ),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is counted apart.
    expect((await failedSignIn(ctx, freshAddress().ip, 'made-up')).statusCode).toBe(401);
  });
});

describe.skipIf(!redisUrl)('failed CalDAV sign-ins with counters in Redis', () => {
  let ctx: TestContext;
  let redis: Redis;
  beforeAll(async () => {
    ctx = await createTestApp({ config: { loginAttemptsPerAccount: ATTEMPTS, redisUrl } });
    redis = new Redis(redisUrl ?? '');
    await untilCountersInRedis(ctx, redis);
  });
  afterAll(async () => {
    redis.disconnect();
    await ctx.close();
  });

  const keysWith = async (text: string) => {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', 'tally:limits:*', 'COUNT', 1000);
      cursor = next;
      found.push(...keys.filter((key) => key.includes(text)));
    } while (cursor !== '0');
    return found;
  };

  it('write a few short keys, each expiring, however many names are tried', async () => {
    const { ip, block } = freshAddress();
    const marker = `flood${randomBytes(6).toString('hex')}`;
    expect(await flood(ctx, ip, marker, 40)).toEqual(expected(40));

    expect(await keysWith(marker)).toEqual([]);
    const keys = await keysWith(block);
    // The address's own counter and one per name tried before it was refused.
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.length).toBeLessThanOrEqual(ATTEMPTS * 3 + 1);
    for (const key of keys) {
      expect(key.length).toBeLessThan(100);
      expect(await redis.pttl(key)).toBeGreaterThan(0);
    }
  });
});
