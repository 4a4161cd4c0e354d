import { decodeJwt, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, registerUser, type TestContext, uniqueName } from '../test/helpers.js';
import { type LocalGoogleIdp, startLocalGoogleIdp } from '../test/local-google-idp.js';

const CLIENT_ID = 'tally-test.apps.googleusercontent.com';
let idp: LocalGoogleIdp;
let ctx: TestContext;

beforeAll(async () => {
  idp = await startLocalGoogleIdp(CLIENT_ID);
  ctx = await createTestApp({
    config: {
      googleClientId: CLIENT_ID,
      googleJwksUrl: idp.jwksUrl,
      googleIssuers: ['accounts.google.com', 'https://accounts.google.com'],
    },
  });
  // Google tokens carry real times; the app's clock must agree with them.
  ctx.clock.current = Date.now();
});
afterAll(async () => {
  await ctx.close();
  await idp.close();
});

const google = (token: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/google', payload: { token } });
const userCount = async () =>
  Number(
    (
      await ctx.database.handle.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /api/auth/google', () => {
  it('creates an account named after the e-mail on first sign-in, and finds it by subject later', async () => {
    const sub = uniqueName('sub');
    const first = await google(await idp.issue({ sub, email: 'Jane.Doe+tally@gmail.com' }));
    expect(first.statusCode).toBe(200);
    const { accessToken } = first.json<{ accessToken: string }>();
    expect(decodeJwt(accessToken).sub).toBe('Jane.Doetally');
    expect(first.cookies.some((c) => c.name === 'tally_refresh')).toBe(true);

    // Same Google account, new e-mail address: still the same Tally account.
    const again = await google(await idp.issue({ sub, email: 'jane.new@gmail.com' }));
    expect(decodeJwt(again.json<{ accessToken: string }>().accessToken).sub).toBe('Jane.Doetally');
    const totals = (
      await as(ctx.app, { token: accessToken })({ method: 'GET', url: '/api/statistics/total' })
    ).json();
    expect(totals).toMatchObject({
      googleAuths: 2,
      logins: 2,
      tokensGenerated: 2,
      registrations: 1,
    });
  });

  it('makes derived usernames unique', async () => {
    const a = await google(await idp.issue({ sub: uniqueName('s'), email: 'sam@gmail.com' }));
    const b = await google(
      await idp.issue({ sub: uniqueName('s'), email: 'sam@example.org', hd: 'example.org' }),
    );
    expect(decodeJwt(a.json<{ accessToken: string }>().accessToken).sub).toBe('sam');
    expect(decodeJwt(b.json<{ accessToken: string }>().accessToken).sub).toBe('sam2');
  });

  it('links an existing account with the same e-mail when Google is authoritative for it', async () => {
    const user = await registerUser(ctx.app, uniqueName('gm'));
    const email = `${user.username}@gmail.com`;
    await ctx.database.handle.db
      .updateTable('users')
      .set({ email, email_lower: email.toLowerCase() })
      .where('username', '=', user.username)
      .execute();
    const response = await google(await idp.issue({ sub: uniqueName('sub'), email }));
    expect(response.statusCode).toBe(200);
    expect(decodeJwt(response.json<{ accessToken: string }>().accessToken).sub).toBe(user.username);
  });

  it('does not take over an account whose e-mail Google is not authoritative for', async () => {
    const user = await registerUser(ctx.app); // user@example.com, no hd claim
    const before = await userCount();
    const response = await google(await idp.issue({ sub: uniqueName('sub'), email: user.email }));
    expect(response.statusCode).toBe(409);
    expect(await userCount()).toBe(before);
  });

  it('answers 401 and creates nothing for every bad credential', async () => {
    const before = await userCount();
    const base = { sub: uniqueName('bad'), email: 'bad@gmail.com' };
    const cases: Record<string, string> = {
      'wrong audience': await idp.issue({
        ...base,
        aud: 'someone-else.apps.googleusercontent.com',
      }),
      'wrong issuer': await idp.issue({ ...base, iss: 'https://evil.example.com' }),
      expired: await idp.issue(base, { expiresIn: '-1m' }),
      'unverified e-mail': await idp.issue({ ...base, email_verified: false }),
      'unknown key': await idp.issueWithUnknownKey(base),
      'alg none': new UnsecuredJWT({ ...base, email_verified: true })
        .setIssuer('https://accounts.google.com')
        .setAudience(CLIENT_ID)
        .setExpirationTime('1h')
        .encode(),
      'an OAuth access token': 'ya29.a0AfH6SMBexampleaccesstoken',
      garbage: 'not-a-token',
    };
    for (const [name, token] of Object.entries(cases)) {
      const response = await google(token);
      expect(response.statusCode, name).toBe(401);
      expect(response.json<{ error: string }>().error, name).toMatch(/^Google sign-in failed/);
    }
    expect(await userCount()).toBe(before);
  });

  it('answers 503 when Google sign-in is not configured', async () => {
    const plain = await createTestApp();
    try {
      const response = await plain.app.inject({
        method: 'POST',
        url: '/api/auth/google',
        payload: { token: await idp.issue() },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        error: 'Sign-in with Google is not configured on this server',
      });
    } finally {
      await plain.close();
    }
  });
});
