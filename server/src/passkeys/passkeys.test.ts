import { accountApi, authApi, calendarApi, passkeysApi, twoFactorApi } from '@tally/contract';
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  otherAccessOf,
  refreshCookieOf,
  registerUser,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';
import {
  type AuthenticationOptionsJSON,
  type RegistrationOptionsJSON,
  SoftwareAuthenticator,
} from '../test/webauthn-authenticator.js';

/**
 * Passkeys (docs/decisions/082-passkeys.md) with real WebAuthn answers from a software
 * authenticator (test/webauthn-authenticator.ts): adding one in Settings, signing in with it,
 * proving identity again with it, and every way an answer is refused.
 */

const MINUTE = 60_000;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

/** The challenge cookie a response set, as a Cookie header value (the "browser" that asked). */
function challengeCookieOf(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'tally_webauthn');
  if (!cookie) throw new Error('no challenge cookie in the response');
  return `tally_webauthn=${cookie.value}`;
}

const STALE = {
  error:
    'response is not valid: the passkey request has expired or was already used - please try again',
};
const NOT_VERIFIED = { error: 'response could not be verified as a passkey of this site' };

/** Asks for registration options as the user; answers them and the browser's cookie. */
async function registrationOptions(user: TestUser) {
  const response = await apiClient(ctx.app, user)(passkeysApi.registrationOptions);
  expect(response.statusCode, response.body).toBe(200);
  return { options: response.json<RegistrationOptionsJSON>(), cookie: challengeCookieOf(response) };
}

const addPasskey = (user: TestUser, cookie: string, payload: object) =>
  apiClient(ctx.app, user).unchecked(passkeysApi.add, { body: payload, headers: { cookie } });

/** A user with one passkey on a fresh software authenticator. */
async function userWithPasskey(name = 'Laptop') {
  const user = await registerUser(ctx.app);
  const authenticator = new SoftwareAuthenticator();
  const { options, cookie } = await registrationOptions(user);
  const { response, credential } = authenticator.register(options);
  const added = await addPasskey(user, cookie, { name, response });
  expect(added.statusCode, added.body).toBe(201);
  return { user, authenticator, credential, passkeyId: added.json<{ id: number }>().id };
}

async function signInOptions() {
  const response = await apiClient(ctx.app, null)(passkeysApi.signInOptions);
  expect(response.statusCode, response.body).toBe(200);
  return {
    options: response.json<AuthenticationOptionsJSON>(),
    cookie: challengeCookieOf(response),
  };
}

const signIn = (cookie: string, response: object) =>
  apiClient(ctx.app, null).unchecked(passkeysApi.signIn, {
    body: { response },
    headers: { cookie },
  });

describe('adding a passkey in Settings', () => {
  it('asks for a discoverable credential with user verification, bound to PUBLIC_URL', async () => {
    const user = await registerUser(ctx.app);
    const { options } = await registrationOptions(user);
    expect(options).toMatchObject({
      rp: { id: 'localhost', name: 'Tally' },
      user: { name: user.username, displayName: user.username },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: [],
    });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('adds it with its name and lists it with when it was added and last used', async () => {
    const { user, passkeyId } = await userWithPasskey('  Work laptop ');
    const listed = await apiClient(ctx.app, user)(passkeysApi.list);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      {
        id: passkeyId,
        name: 'Work laptop',
        createdAt: new Date(ctx.clock.now()).toISOString(),
        lastUsedAt: null,
      },
    ]);
    // The next options exclude it, so the authenticator does not make a second one.
    const { options } = await registrationOptions(user);
    expect((options as { excludeCredentials?: unknown[] }).excludeCredentials).toHaveLength(1);
  });

  it('refuses a credential already registered, on another account or the same one (409)', async () => {
    const { credential, authenticator } = await userWithPasskey();
    const other = await registerUser(ctx.app);
    const { options, cookie } = await registrationOptions(other);
    const { response } = authenticator.register(options, { reuse: credential });
    const refused = await addPasskey(other, cookie, { name: 'Stolen', response });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'This passkey is already registered' });
    expect((await apiClient(ctx.app, other)(passkeysApi.list)).json()).toEqual([]);
  });

  it('refuses an answer without user verification, from another origin, or replayed (400 naming response)', async () => {
    const user = await registerUser(ctx.app);
    const authenticator = new SoftwareAuthenticator();
    let { options, cookie } = await registrationOptions(user);
    let refused = await addPasskey(user, cookie, {
      name: 'No PIN',
      response: authenticator.register(options, { userVerified: false }).response,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(NOT_VERIFIED);

    ({ options, cookie } = await registrationOptions(user));
    refused = await addPasskey(user, cookie, {
      name: 'Phishing',
      response: authenticator.register(options, { origin: 'https://tally.example.net' }).response,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(NOT_VERIFIED);

    ({ options, cookie } = await registrationOptions(user));
    const { response } = authenticator.register(options);
    expect((await addPasskey(user, cookie, { name: 'Phone', response })).statusCode).toBe(201);
    refused = await addPasskey(user, cookie, { name: 'Again', response });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(STALE);
  });

  it("refuses another account's challenge and a blank name", async () => {
    const user = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const { options, cookie } = await registrationOptions(user);
    const { response } = new SoftwareAuthenticator().register(options);
    const blank = await addPasskey(user, cookie, { name: '  ', response });
    expect(blank.statusCode).toBe(400);
    expect(blank.json<{ error: string }>().error).toMatch(/^name /);
    const theirs = await addPasskey(other, cookie, { name: 'Mine now', response });
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json()).toEqual(STALE);
  });

  it('needs a recent proof of identity to add or remove one; a passkey proves it', async () => {
    const { user, authenticator, passkeyId } = await userWithPasskey();
    ctx.clock.advance(6 * MINUTE);
    const call = apiClient(ctx.app, user);
    const reauth = { error: expect.any(String), code: 'reauthentication_required' };
    const options = await call(passkeysApi.registrationOptions);
    expect(options.statusCode).toBe(403);
    expect(options.json()).toEqual(reauth);
    const remove = await call(passkeysApi.remove, { params: { id: passkeyId } });
    expect(remove.statusCode).toBe(403);
    expect(remove.json()).toEqual(reauth);
    // Renaming is not sensitive.
    const renamed = await call(passkeysApi.rename, {
      params: { id: passkeyId },
      body: { name: 'Desk' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: passkeyId, name: 'Desk' });

    const asked = await call(passkeysApi.reauthenticationOptions);
    expect(asked.statusCode).toBe(200);
    const askedOptions = asked.json<AuthenticationOptionsJSON>();
    expect(askedOptions.allowCredentials).toHaveLength(1);
    const proved = await call(passkeysApi.reauthenticate, {
      body: { response: authenticator.authenticate(askedOptions) },
      headers: { cookie: challengeCookieOf(asked) },
    });
    expect(proved.statusCode, proved.body).toBe(204);
    const removed = await call(passkeysApi.remove, { params: { id: passkeyId } });
    expect(removed.statusCode).toBe(204);
    expect((await call(passkeysApi.list)).json()).toEqual([]);
  });

  it('ends nothing else when added or removed unless asked (a DELETE without a body)', async () => {
    const user = await registerUser(ctx.app);
    const access = await otherAccessOf(ctx.app, user);
    const { options, cookie } = await registrationOptions(user);
    const { response } = new SoftwareAuthenticator().register(options);
    const added = await addPasskey(user, cookie, { name: 'Phone', response });
    expect(added.statusCode, added.body).toBe(201);
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/account/passkeys/${added.json<{ id: number }>().id}`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await access()).toEqual({ otherDevice: 200, apiToken: 200, feed: 200, thisDevice: 200 });
  });

  it('added, signs every other device out, revokes the API tokens and the feed when asked', async () => {
    const user = await registerUser(ctx.app);
    const access = await otherAccessOf(ctx.app, user);
    const { options, cookie } = await registrationOptions(user);
    const { response } = new SoftwareAuthenticator().register(options);
    const added = await addPasskey(user, cookie, {
      name: 'Phone',
      response,
      endOtherSessions: true,
      endApiTokensAndFeed: true,
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(await access()).toEqual({ otherDevice: 401, apiToken: 401, feed: 404, thisDevice: 200 });
  });

  it('removed, signs every other device out when asked, keeping the tokens and the feed', async () => {
    const { user, passkeyId } = await userWithPasskey();
    const access = await otherAccessOf(ctx.app, user);
    const removed = await apiClient(ctx.app, user)(passkeysApi.remove, {
      params: { id: passkeyId },
      body: { endOtherSessions: true },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await access()).toEqual({ otherDevice: 401, apiToken: 200, feed: 200, thisDevice: 200 });
    const again = await apiClient(ctx.app, user).unchecked(passkeysApi.remove, {
      params: { id: passkeyId },
      body: { endOtherSessions: 'yes' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json<{ error: string }>().error).toMatch(/endOtherSessions/);
  });

  it("refuses to prove identity with another user's passkey", async () => {
    const { user } = await userWithPasskey();
    const stranger = await userWithPasskey();
    const asked = await apiClient(ctx.app, user)(passkeysApi.reauthenticationOptions);
    const refused = await apiClient(ctx.app, user)(passkeysApi.reauthenticate, {
      body: { response: stranger.authenticator.authenticate(asked.json()) },
      headers: { cookie: challengeCookieOf(asked) },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'response is not from a passkey of this account' });
  });

  it("answers 404 for another user's passkey and 409 for an account with none", async () => {
    const { passkeyId } = await userWithPasskey();
    const other = await registerUser(ctx.app);
    const call = apiClient(ctx.app, other);
    const rename = await call(passkeysApi.rename, {
      params: { id: passkeyId },
      body: { name: 'Mine' },
    });
    expect(rename.statusCode).toBe(404);
    expect(rename.json()).toEqual({ error: 'Passkey not found', code: 'not_found' });
    const remove = await call(passkeysApi.remove, { params: { id: passkeyId } });
    expect(remove.statusCode).toBe(404);
    const none = await call(passkeysApi.reauthenticationOptions);
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({ error: 'This account has no passkey' });
  });
});

describe('signing in with a passkey', () => {
  it('signs in without a password with the same session as a password login', async () => {
    const { user, authenticator, passkeyId } = await userWithPasskey();
    ctx.clock.advance(MINUTE);
    const { options, cookie } = await signInOptions();
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect((options as { allowCredentials?: unknown[] }).allowCredentials ?? []).toEqual([]);
    const signedIn = await signIn(cookie, authenticator.authenticate(options));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const { accessToken } = signedIn.json<{ accessToken: string }>();
    const claims = JSON.parse(
      Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString(),
    ) as {
      sub: string;
    };
    expect(claims.sub).toBe(user.username);
    // The refresh cookie renews it, and the fresh sign-in counts as a recent proof of identity.
    const renewed = await apiClient(ctx.app, null)(authApi.refresh, {
      headers: { cookie: refreshCookieOf(signedIn) },
    });
    expect(renewed.statusCode).toBe(200);
    const feed = await apiClient(ctx.app, { token: accessToken })(calendarApi.regenerate);
    expect(feed.statusCode).toBe(201);
    const listed = await apiClient(ctx.app, { token: accessToken })(passkeysApi.list);
    expect(listed.json()).toEqual([
      expect.objectContaining({
        id: passkeyId,
        lastUsedAt: new Date(ctx.clock.now()).toISOString(),
      }),
    ]);
  });

  it('offers itself at the second step of an account with two-factor codes, and replaces it', async () => {
    const { user, authenticator } = await userWithPasskey();
    const call = apiClient(ctx.app, user);
    const setup = await call(twoFactorApi.setup);
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const code = TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: ctx.clock.now() });
    const enabled = await call(twoFactorApi.enable, { body: { code } });
    expect(enabled.statusCode, enabled.body).toBe(201);

    const login = await apiClient(ctx.app, null)(authApi.login, {
      body: { username: user.username, password: user.password },
    });
    expect(login.json()).toMatchObject({
      mfaRequired: true,
      methods: ['totp', 'recovery', 'passkey'],
    });
    // No code needed: the passkey is two factors in itself.
    const { options, cookie } = await signInOptions();
    const signedIn = await signIn(cookie, authenticator.authenticate(options));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toEqual({ accessToken: expect.any(String) });
  });

  it('refuses a replayed answer and a challenge used once already (400 naming response)', async () => {
    const { authenticator } = await userWithPasskey();
    const { options, cookie } = await signInOptions();
    const answer = authenticator.authenticate(options);
    expect((await signIn(cookie, answer)).statusCode).toBe(200);
    const replayed = await signIn(cookie, answer);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json()).toEqual(STALE);
  });

  it('refuses an expired challenge', async () => {
    const { authenticator } = await userWithPasskey();
    const { options, cookie } = await signInOptions();
    ctx.clock.advance(5 * MINUTE + 1000);
    const late = await signIn(cookie, authenticator.authenticate(options));
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual(STALE);
  });

  it('refuses an answer sent from another browser than the one that asked', async () => {
    const { authenticator } = await userWithPasskey();
    const { options } = await signInOptions();
    const other = await signInOptions();
    const answer = authenticator.authenticate(options);
    expect((await signIn(other.cookie, answer)).json()).toEqual(STALE);
    const noCookie = await apiClient(ctx.app, null)(passkeysApi.signIn, {
      body: { response: answer },
    });
    expect(noCookie.statusCode).toBe(400);
  });

  it('refuses a wrong origin, missing user verification and a counter that goes backwards (401)', async () => {
    const { authenticator } = await userWithPasskey();
    let { options, cookie } = await signInOptions();
    let refused = await signIn(
      cookie,
      authenticator.authenticate(options, { origin: 'https://evil.example' }),
    );
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(NOT_VERIFIED);

    ({ options, cookie } = await signInOptions());
    refused = await signIn(cookie, authenticator.authenticate(options, { userVerified: false }));
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(NOT_VERIFIED);

    ({ options, cookie } = await signInOptions());
    expect(
      (await signIn(cookie, authenticator.authenticate(options, { counter: 10 }))).statusCode,
    ).toBe(200);
    ({ options, cookie } = await signInOptions());
    refused = await signIn(cookie, authenticator.authenticate(options, { counter: 9 }));
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(NOT_VERIFIED);
    ({ options, cookie } = await signInOptions());
    refused = await signIn(cookie, authenticator.authenticate(options, { counter: 10 }));
    expect(refused.statusCode).toBe(401);
  });

  it("refuses an answer claiming another account's user handle, and a removed passkey", async () => {
    const { user, authenticator, passkeyId } = await userWithPasskey();
    const other = await userWithPasskey();
    let { options, cookie } = await signInOptions();
    let refused = await signIn(
      cookie,
      authenticator.authenticate(options, { userHandle: other.credential.userHandle }),
    );
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(NOT_VERIFIED);

    const removed = await apiClient(ctx.app, user)(passkeysApi.remove, {
      params: { id: passkeyId },
    });
    expect(removed.statusCode).toBe(204);
    ({ options, cookie } = await signInOptions());
    refused = await signIn(cookie, authenticator.authenticate(options));
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      error: 'This passkey is not registered here - it may have been removed',
    });
  });

  it('refuses a malformed answer with a 400 naming the field', async () => {
    const { cookie } = await signInOptions();
    const missing = await apiClient(ctx.app, null).unchecked(passkeysApi.signIn, {
      body: {},
      headers: { cookie },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ error: string }>().error).toMatch(/response/);
    const garbled = await signIn(cookie, {
      id: 'abc',
      rawId: 'abc',
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: 'bm90IGpzb24', authenticatorData: 'AA', signature: 'AA' },
    });
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json()).toEqual({ error: 'response.clientDataJSON is not valid' });
  });

  it('ends with the account: deleting it removes its passkeys', async () => {
    const { user, authenticator } = await userWithPasskey();
    const deleted = await apiClient(ctx.app, user)(accountApi.remove, {
      body: { password: user.password },
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const { options, cookie } = await signInOptions();
    expect((await signIn(cookie, authenticator.authenticate(options))).statusCode).toBe(401);
  });
});

describe('the relying party of a public PUBLIC_URL', () => {
  let hosted: TestContext;
  beforeAll(async () => {
    hosted = await createTestApp({ config: { publicUrl: 'https://tally.example.com' } });
  });
  afterAll(async () => hosted.close());

  it("binds passkeys to PUBLIC_URL's host and accepts answers from its origin only", async () => {
    const user = await registerUser(hosted.app);
    const call = apiClient(hosted.app, user);
    const authenticator = new SoftwareAuthenticator();
    const addWith = async (origin: string) => {
      const asked = await call(passkeysApi.registrationOptions);
      const options = asked.json<RegistrationOptionsJSON>();
      expect(options.rp.id).toBe('tally.example.com');
      return call(passkeysApi.add, {
        body: { name: 'Laptop', response: authenticator.register(options, { origin }).response },
        headers: { cookie: challengeCookieOf(asked) },
      });
    };
    for (const origin of [
      'http://localhost:3000',
      'https://tally.example.com:8443',
      'http://tally.example.com',
    ]) {
      const refused = await addWith(origin);
      expect(refused.statusCode, origin).toBe(400);
      expect(refused.json()).toEqual(NOT_VERIFIED);
    }
    expect((await addWith('https://tally.example.com')).statusCode).toBe(201);

    const asked = await apiClient(hosted.app, null)(passkeysApi.signInOptions);
    const options = asked.json<AuthenticationOptionsJSON>();
    expect(options.rpId).toBe('tally.example.com');
    const signedIn = await apiClient(hosted.app, null)(passkeysApi.signIn, {
      body: {
        response: authenticator.authenticate(options, {
          credential: authenticator.credentials.at(-1),
          origin: 'https://tally.example.com',
        }),
      },
      headers: { cookie: challengeCookieOf(asked) },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });
});
