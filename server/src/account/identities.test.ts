import { accountApi, authApi, systemApi } from '@tally/contract';
import { decodeJwt, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  registerUser,
  type TestContext,
  type TestUser,
  uniqueName,
} from '../test/helpers.js';
import { issueToken } from './email-links.js';
import { type LocalGoogleIdp, startLocalGoogleIdp } from '../test/local-google-idp.js';
import { snapshotUser } from '../test/security.js';

/**
 * Google and existing accounts (decision 078): Continue with Google links to an account by
 * e-mail only when Tally verified that address; otherwise the owner links Google in Settings,
 * signed in with the password.
 */

const CLIENT_ID = 'tally-linking.apps.googleusercontent.com';
let idp: LocalGoogleIdp;
let ctx: TestContext;

beforeAll(async () => {
  idp = await startLocalGoogleIdp(CLIENT_ID);
  ctx = await createTestApp({
    config: {
      googleClientId: CLIENT_ID,
      googleJwksUrl: idp.jwksUrl,
      googleIssuers: ['https://accounts.google.com'],
    },
  });
  // Google tokens carry real times; the app's clock must agree with them.
  ctx.clock.current = Date.now();
});
afterAll(async () => {
  await ctx.close();
  await idp.close();
});

/** A credential as Google's client hands it over: bound to this browser's nonce cookie. */
async function credential(claims: JWTPayload): Promise<{ token: string; cookie: string }> {
  const response = await apiClient(ctx.app, null)(authApi.googleNonce);
  const set = response.cookies.find((c) => c.name === 'tally_google_nonce');
  if (!set) throw new Error('no nonce cookie');
  const { nonce } = response.json<{ nonce: string }>();
  return { token: await idp.issue({ ...claims, nonce }), cookie: `${set.name}=${set.value}` };
}

async function googleSignIn(claims: JWTPayload) {
  const { token, cookie } = await credential(claims);
  return apiClient(ctx.app, null)(authApi.google, { body: { token }, headers: { cookie } });
}

async function link(user: Pick<TestUser, 'token'>, claims: JWTPayload) {
  const { token, cookie } = await credential(claims);
  return apiClient(ctx.app, user)(accountApi.linkGoogle, { body: { token }, headers: { cookie } });
}

const googleSubjectOf = async (userId: number) =>
  (
    await ctx.database.handle.db
      .selectFrom('users')
      .select('google_subject')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
  ).google_subject;

const account = async (user: Pick<TestUser, 'token'>) =>
  (await apiClient(ctx.app, user)(accountApi.get)).json<{
    emailVerified: boolean;
    googleLinked: boolean;
  }>();

describe('Continue with Google and an existing account', () => {
  it("does not hand a victim's Google sign-in to whoever registered the address first", async () => {
    // The attacker registers the victim's gmail.com address with a password of their own.
    const victimEmail = `${uniqueName('victim')}@gmail.com`;
    const attacker = await apiClient(ctx.app, null)(authApi.register, {
      body: { username: uniqueName('attacker'), email: victimEmail, password: 'attacker pw 1' },
    });
    expect(attacker.statusCode).toBe(201);
    const attackerId = decodeJwt(attacker.json<{ accessToken: string }>().accessToken)
      .uid as number;

    // The victim signs in with Google for that address: refused, nothing linked.
    const response = await googleSignIn({ sub: uniqueName('victim-sub'), email: victimEmail });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error:
        'An account with this e-mail address already exists - sign in with your password and link Google in Settings',
    });
    expect(await googleSubjectOf(attackerId)).toBeNull();
  });

  it('neither signs in to nor links an account with a verified address and a password', async () => {
    // The attacker registered the victim's address and the victim clicked the verification
    // link: the address is verified, the password is still the attacker's.
    const user = await registerUser(ctx.app);
    await ctx.database.handle.db
      .updateTable('users')
      .set({ email_verified_at: ctx.clock.now() })
      .where('id', '=', user.id)
      .execute();
    const response = await googleSignIn({
      sub: uniqueName('sub'),
      email: user.email.toUpperCase(),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error:
        'An account with this e-mail address already exists - sign in with your password and link Google in Settings',
    });
    expect(await googleSubjectOf(user.id)).toBeNull();
  });
});

describe('the verification link', () => {
  const peek = (token: string) =>
    apiClient(ctx.app, null)(authApi.verifyEmailAccount, { body: { token } });

  it('names the account it is for and verifies nothing until the person asks', async () => {
    const user = await registerUser(ctx.app);
    const token = await issueToken(
      ctx.database.handle.db,
      { id: user.id, username: user.username, email: user.email },
      'verify-email',
      ctx.clock.now(),
    );
    for (let i = 0; i < 2; i++) {
      const named = await peek(token);
      expect(named.statusCode, named.body).toBe(200);
      expect(named.json()).toEqual({ username: user.username, email: user.email });
    }
    expect((await account(user)).emailVerified).toBe(false);

    const verified = await apiClient(ctx.app, null)(authApi.verifyEmail, { body: { token } });
    expect(verified.statusCode).toBe(204);
    expect((await account(user)).emailVerified).toBe(true);
    const spent = await peek(token);
    expect(spent.statusCode).toBe(400);
    expect(spent.json()).toEqual({
      error: 'token is not valid: the link was already used, has expired or is unknown',
    });
    expect((await peek('x'.repeat(43))).statusCode).toBe(400);
  });
});

describe('POST /api/account/google', () => {
  it('links the Google account; Google then signs in to this account', async () => {
    const user = await registerUser(ctx.app);
    const sub = uniqueName('sub');
    const response = await link(user, { sub, email: `${uniqueName('other')}@gmail.com` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      username: user.username,
      googleLinked: true,
      // Google vouched for another address than the account's: still unverified.
      emailVerified: false,
    });
    const signIn = await googleSignIn({ sub, email: 'whatever@gmail.com' });
    expect(decodeJwt(signIn.json<{ accessToken: string }>().accessToken).uid).toBe(user.id);
    // The same Google account again: nothing to do.
    expect((await link(user, { sub, email: 'whatever@gmail.com' })).statusCode).toBe(200);
  });

  it("marks the account's e-mail verified when Google vouches for that very address", async () => {
    const user = await registerUser(ctx.app);
    const response = await link(user, { sub: uniqueName('sub'), email: user.email });
    expect(response.json()).toMatchObject({ googleLinked: true, emailVerified: true });
  });

  it('answers 409 for a Google account linked to another Tally account', async () => {
    const owner = await registerUser(ctx.app);
    const sub = uniqueName('sub');
    expect((await link(owner, { sub })).statusCode).toBe(200);
    const other = await registerUser(ctx.app);
    const response = await link(other, { sub });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'That Google account is already linked to another Tally account',
    });
    expect(await googleSubjectOf(other.id)).toBeNull();
  });

  it('answers 409 when this account has another Google account already', async () => {
    const user = await registerUser(ctx.app);
    const first = uniqueName('sub');
    await link(user, { sub: first });
    const response = await link(user, { sub: uniqueName('sub') });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'Your account is already linked to another Google account - unlink it first',
    });
    expect(await googleSubjectOf(user.id)).toBe(first);
  });

  it("refuses a bad credential, or one without this browser's nonce, with a 400 naming it", async () => {
    const user = await registerUser(ctx.app);
    const forged = await apiClient(ctx.app, user)(accountApi.linkGoogle, {
      body: { token: 'not-a-token' },
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ error: 'token was refused: the credential is not valid' });
    // A real credential, but without the nonce cookie it was issued for (a replay).
    const { token } = await credential({ sub: uniqueName('sub') });
    const replayed = await apiClient(ctx.app, user)(accountApi.linkGoogle, { body: { token } });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json<{ error: string }>().error).toMatch(/^token was refused: /);
  });
});

describe('DELETE /api/account/google', () => {
  it('unlinks; Google then signs in to a new account, not this one', async () => {
    const user = await registerUser(ctx.app);
    const sub = uniqueName('sub');
    await link(user, { sub, email: `${uniqueName('u')}@gmail.com` });
    const response = await apiClient(ctx.app, user)(accountApi.unlinkGoogle);
    expect(response.statusCode).toBe(204);
    expect((await account(user)).googleLinked).toBe(false);
    // Nothing linked any more: still 204.
    expect((await apiClient(ctx.app, user)(accountApi.unlinkGoogle)).statusCode).toBe(204);
  });

  it('answers 409 for an account without a password, which could not sign in otherwise', async () => {
    const signIn = await googleSignIn({
      sub: uniqueName('sub'),
      email: `${uniqueName('only')}@gmail.com`,
    });
    const user = { token: signIn.json<{ accessToken: string }>().accessToken };
    const response = await apiClient(ctx.app, user)(accountApi.unlinkGoogle);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'Set a password before unlinking Google - without one you could not sign in',
    });
    expect(await account(user)).toMatchObject({ googleLinked: true });
  });
});

describe('an account without a password', () => {
  async function googleOnly() {
    const sub = uniqueName('sub');
    const signIn = await googleSignIn({ sub, email: `${uniqueName('only')}@gmail.com` });
    const token = signIn.json<{ accessToken: string }>().accessToken;
    return { sub, token, id: decodeJwt(token).uid as number };
  }

  it('changes neither password nor e-mail without one (409): a reset link sets it', async () => {
    const user = await googleOnly();
    const password = await apiClient(ctx.app, user)(accountApi.changePassword, {
      body: { currentPassword: 'anything', newPassword: 'a new password' },
    });
    expect(password.statusCode).toBe(409);
    expect(password.json<{ error: string }>().error).toMatch(/^Your account has no password/);
    const email = await apiClient(ctx.app, user)(accountApi.changeEmail, {
      body: { email: 'new@example.org', currentPassword: 'anything' },
    });
    expect(email.statusCode).toBe(409);
  });

  it('is deleted with a fresh credential of its own Google account, and only with that', async () => {
    const user = await googleOnly();
    const remove = async (claims: JWTPayload | null) => {
      const proof = claims ? await credential(claims) : null;
      return apiClient(ctx.app, user)(accountApi.remove, {
        body: proof ? { googleToken: proof.token } : { password: 'guess' },
        headers: proof ? { cookie: proof.cookie } : {},
      });
    };
    const withPassword = await remove(null);
    expect(withPassword.statusCode).toBe(400);
    expect(withPassword.json()).toEqual({
      error: 'googleToken is required to delete an account without a password',
    });
    const someoneElse = await remove({ sub: uniqueName('stranger') });
    expect(someoneElse.statusCode).toBe(400);
    expect(someoneElse.json()).toEqual({
      error: 'googleToken is not from the Google account linked to this account',
    });
    const before = await snapshotUser(ctx.database.handle.db, user.id);
    expect(before).toContain(user.sub);

    expect((await remove({ sub: user.sub })).statusCode).toBe(204);
    const after = JSON.parse(await snapshotUser(ctx.database.handle.db, user.id)) as Record<
      string,
      unknown[]
    >;
    expect(Object.values(after).flat()).toEqual([]);
    // The same Google account makes a new account afterwards.
    const again = await googleSignIn({ sub: user.sub, email: 'back@gmail.com' });
    expect(again.statusCode).toBe(200);
    expect(decodeJwt(again.json<{ accessToken: string }>().accessToken).uid).not.toBe(user.id);
  });
});

describe('REGISTRATION=closed', () => {
  let closed: TestContext;
  beforeAll(async () => {
    closed = await createTestApp({
      config: {
        registration: 'closed',
        googleClientId: CLIENT_ID,
        googleJwksUrl: idp.jwksUrl,
        googleIssuers: ['https://accounts.google.com'],
      },
    });
    closed.clock.current = Date.now();
  });
  afterAll(async () => closed.close());

  it('refuses sign-up by the form and by Google with 403, and says so in /api/config', async () => {
    const register = await apiClient(closed.app, null)(authApi.register, {
      body: {
        username: uniqueName(),
        email: `${uniqueName()}@example.com`,
        password: 'long enough',
      },
    });
    expect(register.statusCode).toBe(403);
    expect(register.json()).toEqual({ error: 'Sign-up is closed on this server' });

    const nonce = await apiClient(closed.app, null)(authApi.googleNonce);
    const set = nonce.cookies.find((c) => c.name === 'tally_google_nonce');
    const token = await idp.issue({
      sub: uniqueName('new'),
      email: `${uniqueName('new')}@gmail.com`,
      nonce: nonce.json<{ nonce: string }>().nonce,
    });
    const google = await apiClient(closed.app, null)(authApi.google, {
      body: { token },
      headers: { cookie: `${set?.name}=${set?.value}` },
    });
    expect(google.statusCode).toBe(403);
    expect(google.json()).toEqual({ error: 'Sign-up is closed on this server' });
    expect(await closed.database.handle.db.selectFrom('users').select('id').execute()).toEqual([]);

    const config = await apiClient(closed.app, null)(systemApi.config);
    expect(config.json()).toEqual({
      googleClientId: CLIENT_ID,
      registration: 'closed',
      passwordResetByEmail: false,
      setupTokenRequired: false,
      authProxy: false,
      oidc: null,
      passwordSignIn: true,
    });
  });
});

describe('SETUP_TOKEN before the first account', () => {
  let fresh: TestContext;
  beforeAll(async () => {
    fresh = await createTestApp({
      config: {
        setupToken: 'first-start-token-0123456789',
        googleClientId: CLIENT_ID,
        googleJwksUrl: idp.jwksUrl,
        googleIssuers: ['https://accounts.google.com'],
      },
    });
    fresh.clock.current = Date.now();
  });
  afterAll(async () => fresh.close());

  it('lets no Google sign-in make the first account, which would skip the token', async () => {
    const nonce = await apiClient(fresh.app, null)(authApi.googleNonce);
    const set = nonce.cookies.find((c) => c.name === 'tally_google_nonce');
    const token = await idp.issue({
      sub: uniqueName('new'),
      email: `${uniqueName('new')}@gmail.com`,
      nonce: nonce.json<{ nonce: string }>().nonce,
    });
    const google = await apiClient(fresh.app, null)(authApi.google, {
      body: { token },
      headers: { cookie: `${set?.name}=${set?.value}` },
    });
    expect(google.statusCode).toBe(403);
    expect(google.json()).toEqual({ error: 'Sign-up is closed on this server' });
    expect(await fresh.database.handle.db.selectFrom('users').select('id').execute()).toEqual([]);
  });
});
