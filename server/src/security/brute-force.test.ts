import { authApi } from '@tally/contract';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { PASSWORD_COST, setPasswordCost } from '../auth/passwords.js';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  redisUrl,
  TEST_PASSWORD_COST,
  registerUser,
  type TestContext,
  uniqueName,
} from '../test/helpers.js';

/**
 * Password guessing: per-IP limits on every auth route, the per-account failed-login limit, and
 * an unknown user that cannot be told from a wrong password by body or by time. (The basic 429s
 * are in auth/auth.test.ts.)
 */

const AUTH_ROUTES = [authApi.login, authApi.register, authApi.refresh, authApi.logout];

describe('per-IP limits', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ config: { authRateLimitPerMinute: 3 } });
  });
  afterAll(async () => ctx.close());

  it('hold on every auth route, per address, and reopen after the minute', async () => {
    for (const endpoint of AUTH_ROUTES) {
      const url = endpoint.path;
      const send = (ip: string) =>
        apiClient(ctx.app, null).unchecked(endpoint, {
          remoteAddress: ip,
          body: { username: uniqueName(), email: `${uniqueName()}@example.com`, password: 'x' },
        });
      for (let i = 0; i < 3; i++) expect((await send('10.1.0.1')).statusCode, url).not.toBe(429);
      const blocked = await send('10.1.0.1');
      expect(blocked.statusCode, url).toBe(429);
      expect(blocked.json<{ error: string }>().error).toMatch(/Too many/);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await send('10.1.0.2')).statusCode, `${url} from another address`).not.toBe(429);
    }
  });

  it('blocks registrations too, so accounts cannot be mass-created from one address', async () => {
    const register = () =>
      apiClient(ctx.app, null)(authApi.register, {
        remoteAddress: '10.1.0.9',
        body: {
          username: uniqueName(),
          email: `${uniqueName()}@example.com`,
          password: 'long enough',
        },
      });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await register()).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
  });
});

describe.each([
  ['in memory', null],
  ['in Redis', redisUrl],
] as const)('per-account login limits, counters %s', (where, counters) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      config: { loginAttemptsPerAccount: 3, authRateLimitPerMinute: 1000, redisUrl: counters },
    });
  });
  afterAll(async () => ctx?.close());

  const login = (username: string, password: string, ip = '10.2.0.1', device?: string) =>
    apiClient(ctx.app, null)(authApi.login, {
      remoteAddress: ip,
      body: { username, password },
      ...(device === undefined ? {} : { headers: { cookie: `tally_device=${device}` } }),
    });
  /** The device cookie a sign-in gave this browser. */
  const deviceOf = (response: LightMyRequestResponse) => {
    const cookie = response.cookies.find((c) => c.name === 'tally_device');
    if (!cookie) throw new Error('no device cookie in the response');
    return cookie.value;
  };
  // Addresses unique to this run, so counters an earlier run left in Redis do not count.
  const run = Math.floor(Math.random() * 200) + 20;
  const ip = (n: number) => `10.${run}.${Math.floor(n / 250)}.${n % 250}`;

  it.skipIf(!counters && where === 'in Redis')(
    'blocks an address after the limit, even with the right password and in any case',
    async () => {
      const user = await registerUser(ctx.app);
      // Successful logins do not add up.
      for (let i = 0; i < 5; i++)
        expect((await login(user.username, user.password, ip(1))).statusCode).toBe(200);
      for (let i = 0; i < 3; i++) {
        expect((await login(user.username, `wrong ${i}`, ip(1))).statusCode).toBe(401);
      }
      const locked = await login(user.username, user.password, ip(1));
      expect(locked.statusCode).toBe(429);
      expect(locked.json<{ error: string }>().error).toMatch(/Too many failed logins/);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await login(user.username.toUpperCase(), 'guess', ip(1))).statusCode).toBe(429);
    },
  );

  it.skipIf(!counters && where === 'in Redis')(
    'does not let a stranger lock the owner out',
    async () => {
      const user = await registerUser(ctx.app);
      for (let i = 0; i < 3; i++) {
        expect((await login(user.username, `wrong ${i}`, ip(2))).statusCode).toBe(401);
      }
      expect((await login(user.username, 'wrong again', ip(2))).statusCode).toBe(429);
      // The owner, from their own address, signs in at once.
      expect((await login(user.username, user.password, ip(3))).statusCode).toBe(200);
    },
  );

  it.skipIf(!counters && where === 'in Redis')(
    'counts 30 simultaneous guesses before checking any, so only the limit is evaluated',
    async () => {
      const user = await registerUser(ctx.app);
      const statuses = (
        await Promise.all(
          Array.from({ length: 30 }, (_, i) => login(user.username, `guess ${i}`, ip(4))),
        )
      ).map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(3);
      expect(statuses.filter((status) => status === 429)).toHaveLength(27);
    },
  );

  it.skipIf(!counters && where === 'in Redis')(
    'slows guesses from many addresses with a growing delay instead of a lock',
    async () => {
      const user = await registerUser(ctx.app);
      for (let i = 0; i < 3; i++) {
        expect((await login(user.username, `wrong ${i}`, ip(10 + i))).statusCode).toBe(401);
      }
      // Beyond the limit, one attempt per delay gets through; the others wait.
      expect((await login(user.username, 'wrong 4', ip(20))).statusCode).toBe(401);
      const waiting = await login(user.username, 'wrong 5', ip(21));
      expect(waiting.statusCode).toBe(429);
      expect(Number(waiting.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      if (counters) return; // Redis keeps its own time; the in-memory run checks the growth.
      ctx.clock.advance(1_100);
      expect((await login(user.username, 'wrong 6', ip(22))).statusCode).toBe(401);
      const longer = await login(user.username, 'wrong 7', ip(23));
      expect(Number(longer.headers['retry-after'])).toBeGreaterThan(
        Number(waiting.headers['retry-after']),
      );
      // The owner gets in as soon as the delay has passed, and that clears the count.
      ctx.clock.advance(60_000);
      expect((await login(user.username, user.password, ip(24))).statusCode).toBe(200);
      expect((await login(user.username, 'wrong 8', ip(25))).statusCode).toBe(401);
      expect((await login(user.username, 'wrong 9', ip(26))).statusCode).toBe(401);
    },
  );

  it.skipIf(!counters && where === 'in Redis')(
    "lets the owner's known browser in while strangers keep the account's gate busy",
    async () => {
      const user = await registerUser(ctx.app);
      const other = await registerUser(ctx.app);
      const signedIn = await login(user.username, user.password, ip(30));
      expect(signedIn.statusCode).toBe(200);
      const device = deviceOf(signedIn);
      const otherDevice = deviceOf(await login(other.username, other.password, ip(30)));
      // A stranger guesses from a new network each time: past the limit, the gate is busy.
      const stranger = (i: number) => `10.${run}.${100 + i}.7`;
      for (let i = 0; i < 4; i++) {
        expect((await login(user.username, `wrong ${i}`, stranger(i))).statusCode).toBe(401);
      }
      expect((await login(user.username, 'wrong 5', stranger(5))).statusCode).toBe(429);
      // The right password alone, another account's device cookie or a forged one do not pass.
      expect((await login(user.username, user.password, ip(31))).statusCode).toBe(429);
      expect((await login(user.username, user.password, ip(31), otherDevice)).statusCode).toBe(429);
      const [, signature] = device.split(/\.(?=[^.]*$)/);
      const forged = `${user.username}.x.${signature}`;
      expect((await login(user.username, user.password, ip(31), forged)).statusCode).toBe(429);
      // The browser that signed in before gets in at once, from anywhere.
      const owner = await login(user.username, user.password, ip(32), device);
      expect(owner.statusCode).toBe(200);
      expect(owner.json()).toHaveProperty('accessToken');
    },
  );

  it.skipIf(!counters && where === 'in Redis')(
    'lets the owner in from an address the account signed in from before, in a new browser',
    async () => {
      const user = await registerUser(ctx.app);
      expect((await login(user.username, user.password, ip(35))).statusCode).toBe(200);
      const stranger = (i: number) => `10.${run}.${120 + i}.7`;
      for (let i = 0; i < 4; i++) {
        expect((await login(user.username, `wrong ${i}`, stranger(i))).statusCode).toBe(401);
      }
      expect((await login(user.username, 'wrong 5', stranger(5))).statusCode).toBe(429);
      // No device cookie, but the address the owner signed in from: in at once.
      expect((await login(user.username, user.password, ip(35))).statusCode).toBe(200);
    },
  );

  it.skipIf(!counters && where === 'in Redis')(
    "holds a known browser to its own address's limit",
    async () => {
      const user = await registerUser(ctx.app);
      const device = deviceOf(await login(user.username, user.password, ip(33)));
      for (let i = 0; i < 3; i++) {
        expect((await login(user.username, `wrong ${i}`, ip(34), device)).statusCode).toBe(401);
      }
      expect((await login(user.username, user.password, ip(34), device)).statusCode).toBe(429);
    },
  );

  it.skipIf(!counters && where === 'in Redis')(
    'counts an IPv6 /64 as one address, so rotating through it buys nothing',
    async () => {
      const user = await registerUser(ctx.app);
      const host = (i: number) => `2001:db8:${run.toString(16)}:1::${(i + 1).toString(16)}`;
      for (let i = 0; i < 3; i++) {
        expect((await login(user.username, `wrong ${i}`, host(i))).statusCode).toBe(401);
      }
      const limited = await login(user.username, 'wrong 4', host(200));
      expect(limited.statusCode).toBe(429);
      expect(limited.json<{ error: string }>().error).toMatch(/Too many failed logins/);
    },
  );

  // Redis keeps its own time; the in-memory run waits out the gate with the test clock.
  it.skipIf(where === 'in Redis')(
    'allows one network (IPv4 /24) 3 times the per-address limit, however slowly it guesses',
    async () => {
      const user = await registerUser(ctx.app);
      const statuses = [];
      for (let i = 0; i < 10; i++) {
        ctx.clock.advance(61_000);
        statuses.push(
          (await login(user.username, `wrong ${i}`, `10.${run}.200.${i + 1}`)).statusCode,
        );
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 429]);
    },
  );

  it.skipIf(!counters && where === 'in Redis')(
    'treats an unknown account the same way, so the lock reveals nothing',
    async () => {
      const ghost = uniqueName('ghost');
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await login(ghost, 'guess guess', ip(5))).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429]);
    },
  );
});

describe('rate limits while Redis is down', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Nothing listens on port 1: every Redis command fails at once.
    ctx = await createTestApp({
      config: { authRateLimitPerMinute: 2, redisUrl: 'redis://127.0.0.1:1' },
    });
  });
  afterAll(async () => ctx.close());

  it('fall back to this process instead of letting every request in', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const response = await apiClient(ctx.app, null)(authApi.login, {
        remoteAddress: '10.7.0.1',
        body: { username: 'nobody-here', password: 'guess guess' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 429]);
  });
});

/** The tests of hashing itself run at the production cost (test/helpers.ts sets a test cost). */
function atProductionCost() {
  beforeAll(() => setPasswordCost(PASSWORD_COST));
  afterAll(() => setPasswordCost(TEST_PASSWORD_COST));
}

describe('unknown user vs wrong password', () => {
  atProductionCost();
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  const timedLogin = async (username: string, password: string) => {
    const started = performance.now();
    const response = await apiClient(ctx.app, null)(authApi.login, {
      body: { username, password },
    });
    return { response, ms: performance.now() - started };
  };
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] as number;
  };

  it('answers with the same status, headers and body', async () => {
    const user = await registerUser(ctx.app);
    const wrong = await timedLogin(user.username, 'wrong password');
    const unknown = await timedLogin(uniqueName('nobody'), 'wrong password');
    expect(wrong.response.statusCode).toBe(401);
    expect(unknown.response.statusCode).toBe(401);
    expect(unknown.response.body).toBe(wrong.response.body);
    const headers = (h: Record<string, unknown>) =>
      Object.keys(h)
        .filter((k) => !['date', 'x-ratelimit-remaining', 'x-ratelimit-reset'].includes(k))
        .sort()
        .map((k) => `${k}: ${k === 'content-length' || k.startsWith('x-') ? '' : String(h[k])}`);
    expect(headers(unknown.response.headers)).toEqual(headers(wrong.response.headers));
  });

  it('takes statistically the same time (medians of 20 interleaved samples within 2x)', async () => {
    const user = await registerUser(ctx.app);
    const googleOnly = uniqueName('g');
    await ctx.database.handle.db
      .insertInto('users')
      .values({
        username: googleOnly,
        username_lower: googleOnly.toLowerCase(),
        email: `${googleOnly}@gmail.com`,
        email_lower: `${googleOnly}@gmail.com`,
        password_hash: null,
        google_subject: googleOnly,
        created_at: ctx.clock.now(),
      })
      .execute();
    // Warm-up: the dummy hash is made on first use.
    await timedLogin(uniqueName('nobody'), 'warm up');
    await timedLogin(user.username, 'warm up');
    const samples = { wrong: [] as number[], unknown: [] as number[], google: [] as number[] };
    for (let i = 0; i < 20; i++) {
      samples.wrong.push((await timedLogin(user.username, `wrong ${i}`)).ms);
      samples.unknown.push((await timedLogin(uniqueName('nobody'), `wrong ${i}`)).ms);
      samples.google.push((await timedLogin(googleOnly, `wrong ${i}`)).ms);
    }
    const m = {
      wrong: median(samples.wrong),
      unknown: median(samples.unknown),
      google: median(samples.google),
    };
    console.info(
      `[login timing] median ms: wrong password ${m.wrong.toFixed(1)}, unknown user ${m.unknown.toFixed(1)}, Google-only account ${m.google.toFixed(1)}`,
    );
    // Without the dummy hash an unknown user answers in ~1 ms against tens of ms for argon2id.
    for (const other of [m.unknown, m.google]) {
      expect(other / m.wrong).toBeGreaterThan(0.5);
      expect(other / m.wrong).toBeLessThan(2);
    }
  });
});

describe('password storage', () => {
  atProductionCost();
  it('stores an argon2id hash at OWASP parameters that no answer ever contains', async () => {
    const ctx = await createTestApp();
    try {
      const user = await registerUser(ctx.app);
      const row = await ctx.database.handle.db
        .selectFrom('users')
        .select('password_hash')
        .where('username', '=', user.username)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      const hashPart = String(row.password_hash).split('$').pop() as string;
      for (const url of ['/api/todos', '/api/statistics/total', '/api/docs/json']) {
        const response = await ctx.app.inject({
          method: 'GET',
          url,
          headers: { authorization: `Bearer ${user.token}` },
        });
        expect(response.body).not.toContain(hashPart);
        expect(response.body).not.toMatch(/\$argon2/);
      }
    } finally {
      await ctx.close();
    }
  });
});

describe('client addresses behind a proxy', () => {
  const attempts = async (ctx: TestContext, forwardedFor: (i: number) => string) => {
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const response = await apiClient(ctx.app, null)(authApi.login, {
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': forwardedFor(i) },
        body: { username: uniqueName(), password: 'guess guess' },
      });
      statuses.push(response.statusCode);
    }
    return statuses;
  };

  it('believe only the entry the trusted proxy added, so a client cannot pick its address', async () => {
    const ctx = await createTestApp({ config: { authRateLimitPerMinute: 2, trustProxy: 1 } });
    try {
      // The client writes any address it likes first; the proxy appends the one it saw.
      expect(await attempts(ctx, (i) => `6.6.6.${i}, 10.4.0.1`)).toEqual([401, 401, 429]);
      expect(await attempts(ctx, () => '10.4.0.2')).toEqual([401, 401, 429]);
    } finally {
      await ctx.close();
    }
  });

  it('ignore X-Forwarded-For entirely when no proxy is trusted', async () => {
    const ctx = await createTestApp({ config: { authRateLimitPerMinute: 2, trustProxy: false } });
    try {
      expect(await attempts(ctx, (i) => `10.5.0.${i}`)).toEqual([401, 401, 429]);
    } finally {
      await ctx.close();
    }
  });
});
