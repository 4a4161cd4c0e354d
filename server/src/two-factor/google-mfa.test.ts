import { authApi, twoFactorApi } from '@tally/contract';
import type { JWTPayload } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, type TestContext, uniqueName } from '../test/helpers.js';
import { type LocalGoogleIdp, startLocalGoogleIdp } from '../test/local-google-idp.js';

/**
 * A Google sign-in to an account with two-factor codes on (docs/decisions/081-two-factor-codes.md): the second step
 * is asked unless the ID token's amr says Google did a multi-factor sign-in and the server trusts
 * that (TRUST_PROVIDER_MFA, on by default).
 */

const CLIENT_ID = 'tally-test.apps.googleusercontent.com';
let idp: LocalGoogleIdp;
let trusting: TestContext;
let distrusting: TestContext;

beforeAll(async () => {
  idp = await startLocalGoogleIdp(CLIENT_ID);
  const google = {
    googleClientId: CLIENT_ID,
    googleJwksUrl: idp.jwksUrl,
    googleIssuers: ['https://accounts.google.com'],
  };
  trusting = await createTestApp({ config: google });
  distrusting = await createTestApp({
    config: { ...google, trustProviderMfa: false },
    database: trusting.database,
    clock: trusting.clock,
  });
  // Google tokens carry real times; the apps' clock must agree with them.
  trusting.clock.current = Date.now();
});
afterAll(async () => {
  await distrusting.close();
  await trusting.close();
  await idp.close();
});

/** A whole Google sign-in: the browser's nonce, a token carrying it, the POST. */
async function googleSignIn(ctx: TestContext, claims: JWTPayload) {
  const started = await apiClient(ctx.app, null)(authApi.googleNonce);
  const set = started.cookies.find((c) => c.name === 'tally_google_nonce');
  const token = await idp.issue({ ...claims, nonce: started.json<{ nonce: string }>().nonce });
  return apiClient(ctx.app, null)(authApi.google, {
    body: { token },
    headers: { cookie: `${set?.name}=${set?.value}` },
  });
}

/** A Google-made account with two-factor codes on. */
async function googleAccountWithTwoFactor() {
  const sub = uniqueName('sub');
  const claims = { sub, email: `${sub}@gmail.com` };
  const created = await googleSignIn(trusting, claims);
  expect(created.statusCode, created.body).toBe(200);
  const call = apiClient(trusting.app, {
    token: created.json<{ accessToken: string }>().accessToken,
  });
  const setup = await call(twoFactorApi.setup);
  const secret = Secret.fromBase32(setup.json<{ secret: string }>().secret);
  const enabled = await call(twoFactorApi.enable, {
    body: { code: TOTP.generate({ secret, timestamp: trusting.clock.current }) },
  });
  expect(enabled.statusCode, enabled.body).toBe(201);
  return claims;
}

describe('Google sign-in with two-factor codes on', () => {
  it('asks for the second step when the ID token says nothing of MFA', async () => {
    const claims = await googleAccountWithTwoFactor();
    for (const amr of [undefined, ['pwd']]) {
      const response = await googleSignIn(trusting, { ...claims, ...(amr ? { amr } : {}) });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ mfaRequired: true, methods: ['totp', 'recovery'] });
      expect(response.cookies.some((c) => c.name === 'tally_refresh')).toBe(false);
    }
  });

  it('signs in at once when the ID token says Google did MFA (amr "mfa")', async () => {
    const claims = await googleAccountWithTwoFactor();
    const response = await googleSignIn(trusting, { ...claims, amr: ['pwd', 'mfa'] });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json())).toEqual(['accessToken']);
  });

  it('asks anyway when the server does not trust the provider (TRUST_PROVIDER_MFA=false)', async () => {
    const claims = await googleAccountWithTwoFactor();
    const response = await googleSignIn(distrusting, { ...claims, amr: ['pwd', 'mfa'] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ mfaRequired: true });
  });
});
