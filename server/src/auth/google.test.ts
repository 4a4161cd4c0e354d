import { authApi, statisticsApi } from '@tally/contract';
import { decodeJwt, type JWTPayload, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext, uniqueName } from '../test/helpers.js';
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

/** What a browser holds after GET /api/auth/google/nonce: the nonce and its cookie. */
interface Browser {
  nonce: string;
  cookie: string;
}

/** A browser starts a Google sign-in: Tally's nonce, which it hands to Google, and the cookie. */
async function startSignIn(cookie?: string): Promise<Browser> {
  const response = await apiClient(ctx.app, null)(authApi.googleNonce, {
    headers: cookie ? { cookie } : {},
  });
  expect(response.statusCode).toBe(200);
  const set = response.cookies.find((c) => c.name === 'tally_google_nonce');
  if (!set) throw new Error('no nonce cookie');
  return { nonce: response.json<{ nonce: string }>().nonce, cookie: `${set.name}=${set.value}` };
}

/** POST /api/auth/google with the token, carrying the browser's cookie when there is one. */
const google = (token: string, browser?: Browser) =>
  apiClient(ctx.app, null)(authApi.google, {
    body: { token },
    headers: browser ? { cookie: browser.cookie } : {},
  });

/** A whole sign-in as Google's client does it: a token carrying the browser's nonce, then the POST. */
async function signIn(claims: JWTPayload = {}, options?: { expiresIn?: string }) {
  const browser = await startSignIn();
  return google(await idp.issue({ ...claims, nonce: browser.nonce }, options), browser);
}
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
    const first = await signIn({ sub, email: 'Jane.Doe+tally@gmail.com' });
    expect(first.statusCode).toBe(200);
    const { accessToken } = first.json<{ accessToken: string }>();
    expect(decodeJwt(accessToken).sub).toBe('Jane.Doetally');
    expect(first.cookies.some((c) => c.name === 'tally_refresh')).toBe(true);

    // Same Google account, new e-mail address: still the same Tally account.
    const again = await signIn({ sub, email: 'jane.new@gmail.com' });
    expect(decodeJwt(again.json<{ accessToken: string }>().accessToken).sub).toBe('Jane.Doetally');
    const totals = (await apiClient(ctx.app, { token: accessToken })(statisticsApi.total)).json();
    expect(totals).toMatchObject({
      googleAuths: 2,
      logins: 2,
      tokensGenerated: 2,
      registrations: 1,
    });
  });

  it('makes derived usernames unique', async () => {
    const a = await signIn({ sub: uniqueName('s'), email: 'sam@gmail.com' });
    const b = await signIn({ sub: uniqueName('s'), email: 'sam@example.org', hd: 'example.org' });
    expect(decodeJwt(a.json<{ accessToken: string }>().accessToken).sub).toBe('sam');
    expect(decodeJwt(b.json<{ accessToken: string }>().accessToken).sub).toMatch(
      /^sam-[0-9a-z]{5}$/,
    );
  });

  // Was "when Google is authoritative for it" (gmail.com or hd), then "when Tally has verified
  // that address" (decision 078): both let whoever registered someone's address first take over
  // their Google sign-in. An existing address now always answers 409 (docs/decisions/078-pre-account-takeover.md);
  // account/google-linking.test.ts has the takeover cases.
  it('does not sign in to an existing account with the same e-mail, even a verified one', async () => {
    const user = await registerUser(ctx.app, uniqueName('gm'));
    const email = `${user.username}@gmail.com`;
    await ctx.database.handle.db
      .updateTable('users')
      .set({ email, email_lower: email.toLowerCase(), email_verified_at: ctx.clock.now() })
      .where('username', '=', user.username)
      .execute();
    const response = await signIn({ sub: uniqueName('sub'), email });
    expect(response.statusCode).toBe(409);
  });

  it('does not take over an account whose e-mail Google is not authoritative for', async () => {
    const user = await registerUser(ctx.app); // user@example.com, no hd claim
    const before = await userCount();
    const response = await signIn({ sub: uniqueName('sub'), email: user.email });
    expect(response.statusCode).toBe(409);
    expect(await userCount()).toBe(before);
  });

  it('answers 401 and creates nothing for every bad credential', async () => {
    const before = await userCount();
    const browser = await startSignIn();
    const base = { sub: uniqueName('bad'), email: 'bad@gmail.com', nonce: browser.nonce };
    const cases: Record<string, string> = {
      'wrong audience': await idp.issue({
        ...base,
        aud: 'someone-else.apps.googleusercontent.com',
      }),
      'wrong issuer': await idp.issue({ ...base, iss: 'https://evil.example.com' }),
      expired: await idp.issue(base, { expiresIn: '-1m' }),
      'unverified e-mail': await idp.issue({ ...base, email_verified: false }),
      'e-mail with a header added': await idp.issue({
        ...base,
        email: 'bad@gmail.com\r\nBcc: someone@elsewhere.example',
      }),
      'a list of addresses': await idp.issue({
        ...base,
        email: Array.from({ length: 30 }, (_, i) => `bad${i}@gmail.com`).join(','),
      }),
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
      const response = await google(token, browser);
      expect(response.statusCode, name).toBe(401);
      expect(response.json<{ error: string }>().error, name).toMatch(/^Google sign-in failed/);
    }
    expect(await userCount()).toBe(before);
  });

  it("refuses a token without this browser's nonce (a replay from elsewhere), whatever else is right", async () => {
    const before = await userCount();
    const victim = await startSignIn();
    const attacker = await startSignIn();
    expect(attacker.nonce).not.toBe(victim.nonce);
    const claims = { sub: uniqueName('replay'), email: 'replay@gmail.com' };
    const captured = await idp.issue({ ...claims, nonce: victim.nonce });
    const cases: Record<string, () => ReturnType<typeof google>> = {
      'no nonce claim': async () => google(await idp.issue(claims), victim),
      "another browser's nonce": async () => google(captured, attacker),
      'no nonce cookie': async () => google(captured),
      'the nonce itself as the cookie': async () =>
        google(captured, { ...victim, cookie: `tally_google_nonce=${victim.nonce}` }),
      'a malformed cookie': async () =>
        google(captured, { ...victim, cookie: 'tally_google_nonce=x' }),
    };
    for (const [name, send] of Object.entries(cases)) {
      const response = await send();
      expect(response.statusCode, name).toBe(401);
      expect(response.json(), name).toEqual({
        error:
          'Google sign-in failed: the credential was not requested by this browser - please try again',
      });
    }
    expect(await userCount()).toBe(before);

    // The browser that asked for the nonce signs in with the same token.
    expect((await google(captured, victim)).statusCode).toBe(200);
  });

  it('takes each token once: a sign-in captured whole (token and cookie) and sent again is refused', async () => {
    const browser = await startSignIn();
    const token = await idp.issue({
      sub: uniqueName('captured'),
      email: 'captured@gmail.com',
      nonce: browser.nonce,
    });
    expect((await google(token, browser)).statusCode).toBe(200);
    const replayed = await google(token, browser);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toEqual({
      error: 'Google sign-in failed: this credential was already used - please try again',
    });
    expect(replayed.cookies.some((c) => c.name === 'tally_refresh')).toBe(false);
  });

  it('keeps one nonce per browser while its cookie lives, and clears the cookie on each attempt', async () => {
    const first = await startSignIn();
    const second = await startSignIn(first.cookie); // another tab of the same browser
    expect(second).toEqual(first);
    expect(first.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const nonce = await apiClient(ctx.app, null)(authApi.googleNonce);
    const set = nonce.cookies.find((c) => c.name === 'tally_google_nonce');
    expect(set).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api', maxAge: 600 });
    expect(set?.secure).toBeFalsy(); // plain HTTP on localhost

    const response = await google(
      await idp.issue({ sub: uniqueName('once'), email: 'once@gmail.com', nonce: first.nonce }),
      first,
    );
    expect(response.statusCode).toBe(200);
    const cleared = response.cookies.find((c) => c.name === 'tally_google_nonce');
    expect(cleared).toMatchObject({ value: '', path: '/api' });

    const refused = await google(await idp.issue({ nonce: first.nonce }), {
      ...first,
      cookie: 'tally_google_nonce=' + 'A'.repeat(43),
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.cookies.find((c) => c.name === 'tally_google_nonce')?.value).toBe('');
  });

  it('sets the nonce cookie Secure, with the __Secure- prefix, over HTTPS', async () => {
    const response = await apiClient(ctx.app, null)(authApi.googleNonce, {
      headers: { host: 'tally.example.com' },
    });
    expect(response.cookies.find((c) => c.name === '__Secure-tally_google_nonce')).toMatchObject({
      secure: true,
      httpOnly: true,
    });
  });

  it('answers 503 when Google sign-in is not configured', async () => {
    const plain = await createTestApp();
    try {
      const response = await apiClient(plain.app, null)(authApi.google, {
        body: { token: await idp.issue() },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        error: 'Sign-in with Google is not configured on this server',
      });
      const nonce = await apiClient(plain.app, null)(authApi.googleNonce);
      expect(nonce.statusCode).toBe(503);
      expect(nonce.cookies).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
