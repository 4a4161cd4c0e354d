import { accountApi, authApi, oidcApi, systemApi, tokensApi, twoFactorApi } from '@tally/contract';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api-client.js';
import {
  createTestApp,
  refreshCookieOf,
  registerUser,
  type TestContext,
  type TestUser,
  uniqueName,
} from '../../test/helpers.js';
import {
  type LocalOidcProvider,
  type LocalPerson,
  oidcSettingsFor,
  startLocalOidcProvider,
} from '../../test/local-oidc-provider.js';
import { linkToken, startLocalSmtp } from '../../test/local-smtp.js';

/**
 * Generic OpenID Connect against a real provider on loopback (test/local-oidc-provider.ts): the
 * browser's part (following redirects, the provider's login form) is played with fetch, and
 * Tally's callback is called as the provider's redirect would call it, with the flow cookie.
 */
const PUBLIC_URL = 'http://localhost:3999';
const MINUTE = 60_000;
let idp: LocalOidcProvider;
let ctx: TestContext;

const oidcConfig = (overrides: Record<string, unknown> = {}) => ({
  ...oidcSettingsFor(idp),
  ...overrides,
});

beforeAll(async () => {
  idp = await startLocalOidcProvider({ publicUrl: PUBLIC_URL });
  ctx = await createTestApp({ config: { publicUrl: PUBLIC_URL, oidc: oidcConfig() } });
  // The provider's tokens carry real times; the app's clock must agree with them.
  ctx.clock.current = Date.now();
});
afterAll(async () => {
  await ctx.close();
  await idp.close();
});

/** What a browser holds after POST /api/auth/oidc/start: the provider's URL and the flow cookie. */
interface Started {
  url: string;
  cookie: string;
}

async function start(app = ctx): Promise<Started> {
  const response = await apiClient(app.app, null)(oidcApi.start);
  expect(response.statusCode).toBe(200);
  return { url: response.json<{ url: string }>().url, cookie: flowCookieOf(response) };
}

function flowCookieOf(response: { cookies: { name: string; value: string }[] }): string {
  const cookie = response.cookies.find((c) => c.name === 'tally_oidc');
  if (!cookie) throw new Error('no flow cookie');
  return `tally_oidc=${cookie.value}`;
}

/** The provider's redirect back to Tally, as the browser follows it. */
const callback = (back: URL, cookie?: string, app = ctx) =>
  app.app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: cookie ? { cookie } : {},
  });

const person = (overrides: Partial<LocalPerson> = {}): LocalPerson => {
  const sub = uniqueName('sub');
  return { sub, email: `${sub}@idp.example`, ...overrides };
};

/** A whole sign-in: start, the provider's login form, the callback. */
async function signIn(who: LocalPerson, app = ctx) {
  const started = await start(app);
  return callback(await idp.authorize(started.url, who), started.cookie, app);
}

/** The access token the web app gets on /login?oidc=signed-in (POST /api/auth/refresh). */
async function accessTokenAfter(response: Awaited<ReturnType<typeof callback>>, app = ctx) {
  const refreshed = await apiClient(app.app, null)(authApi.refresh, {
    headers: { cookie: refreshCookieOf(response) },
  });
  expect(refreshed.statusCode).toBe(200);
  return refreshed.json<{ accessToken: string }>().accessToken;
}

const failedWith = (response: { statusCode: number; headers: Record<string, unknown> }) => {
  expect(response.statusCode).toBe(303);
  return String(response.headers.location);
};

describe('GET /api/config', () => {
  it('names the provider for the button and keeps the password form, and nothing secret', async () => {
    const config = await apiClient(ctx.app, null)(systemApi.config);
    expect(config.json()).toEqual({
      googleClientId: null,
      registration: 'open',
      passwordResetByEmail: false,
      setupTokenRequired: false,
      authProxy: false,
      oidc: { name: 'Local IdP' },
      passwordSignIn: true,
    });
  });

  it('says OIDC_ONLY hides the password form, and sign-up with a password is refused', async () => {
    const only = await createTestApp({
      config: { publicUrl: PUBLIC_URL, oidc: oidcConfig({ only: true }) },
    });
    try {
      const config = await apiClient(only.app, null)(systemApi.config);
      expect(config.json()).toMatchObject({ oidc: { name: 'Local IdP' }, passwordSignIn: false });
      const register = await apiClient(only.app, null)(authApi.register, {
        body: {
          username: uniqueName(),
          email: 'x@example.com',
          password: 'correct horse battery',
        },
      });
      expect(register.statusCode).toBe(403);
      expect(register.json()).toEqual({ error: expect.stringMatching(/single sign-on/) });
    } finally {
      await only.close();
    }
  });

  it('answers 503 for a sign-in while OIDC is not configured', async () => {
    const off = await createTestApp({ config: { publicUrl: PUBLIC_URL } });
    try {
      expect((await apiClient(off.app, null)(systemApi.config)).json()).toMatchObject({
        oidc: null,
        passwordSignIn: true,
      });
      const started = await apiClient(off.app, null)(oidcApi.start);
      expect(started.statusCode).toBe(503);
      expect(started.json()).toEqual({ error: 'Single sign-on is not configured on this server' });
    } finally {
      await off.close();
    }
  });
});

describe('signing in with the provider', () => {
  it('sends the browser to the provider with PKCE S256, state and nonce, and a Lax httpOnly flow cookie', async () => {
    const response = await apiClient(ctx.app, null)(oidcApi.start);
    const url = new URL(response.json<{ url: string }>().url);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/oidc/callback`);
    expect(url.searchParams.get('scope')).toBe('openid profile email');
    const cookie = response.cookies.find((c) => c.name === 'tally_oidc');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/oidc' });
  });

  it('creates an account on first sign-in, ends signed in with a refresh cookie, and finds it by subject later', async () => {
    const who = person();
    const first = await signIn(who);
    expect(failedWith(first)).toBe('/login?oidc=signed-in');
    const token = await accessTokenAfter(first);
    const account = await apiClient(ctx.app, { token })(accountApi.get);
    expect(account.json()).toMatchObject({
      email: who.email,
      emailVerified: true,
      hasPassword: false,
      googleLinked: false,
      oidcLinked: true,
    });

    // The same subject with another address is still the same account.
    const again = await signIn({ ...who, email: 'changed@idp.example' });
    expect(decodeJwt(await accessTokenAfter(again)).sub).toBe(decodeJwt(token).sub);
  });

  it('counts a fresh OIDC sign-in as a recent authentication', async () => {
    const token = await accessTokenAfter(await signIn(person()));
    const created = await apiClient(ctx.app, { token })(tokensApi.create, {
      body: { name: 'Script', scope: 'read', expiresInDays: null },
    });
    expect(created.statusCode).toBe(201);
  });

  it('makes no account from an address the provider has not verified, but signs in a linked one', async () => {
    const who = person({ emailVerified: false });
    const refused = await signIn(who);
    expect(failedWith(refused)).toBe('/login?oidc_error=email_unverified');
    expect(refused.cookies.some((c) => c.name === 'tally_refresh')).toBe(false);
    // The owner can still sign up with a password using that address.
    const owner = await apiClient(ctx.app, null)(authApi.register, {
      body: { username: uniqueName(), email: who.email ?? '', password: 'correct horse battery' },
    });
    expect(owner.statusCode).toBe(201);

    const user = await registerUser(ctx.app);
    const linked = person({ emailVerified: false });
    expect(failedWith(await link(user, linked))).toBe('/settings?oidc=linked');
    expect(failedWith(await signIn(linked))).toBe('/login?oidc=signed-in');
  });

  it('drops an address registration would refuse: a header added with CR LF, or a list', async () => {
    for (const email of [
      `${uniqueName('a')}@idp.example\r\nBcc: someone@elsewhere.example`,
      Array.from({ length: 30 }, (_, i) => `${uniqueName(`r${i}`)}@idp.example`).join(', '),
    ]) {
      const refused = await signIn(person({ email }));
      expect(failedWith(refused)).toBe('/login?oidc_error=no_email');
      expect(refused.cookies.some((c) => c.name === 'tally_refresh')).toBe(false);
    }
  });

  it('never enters nor links an existing account by its e-mail address, verified or not', async () => {
    const owner = await registerUser(ctx.app);
    const refused = await signIn(person({ email: owner.email.toUpperCase() }));
    expect(failedWith(refused)).toBe('/login?oidc_error=email_exists');
    expect(refused.cookies.some((c) => c.name === 'tally_refresh')).toBe(false);
    const account = await apiClient(ctx.app, owner)(accountApi.get);
    expect(account.json()).toMatchObject({ oidcLinked: false });
  });

  it('refuses an identity without an e-mail address for a new account', async () => {
    const refused = await signIn({ sub: uniqueName('sub') });
    expect(failedWith(refused)).toBe('/login?oidc_error=no_email');
  });

  it('reports a refusal at the provider', async () => {
    const started = await start();
    const state = new URL(started.url).searchParams.get('state') ?? '';
    const back = new URL(
      `${PUBLIC_URL}/api/auth/oidc/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(idp.issuer)}`,
    );
    expect(failedWith(await callback(back, started.cookie))).toBe(
      '/login?oidc_error=provider_error',
    );
  });
});

describe('what binds a callback to the browser that started it', () => {
  it('refuses a changed state, and the flow is spent', async () => {
    const started = await start();
    const back = await idp.authorize(started.url, person());
    const tampered = new URL(back);
    tampered.searchParams.set('state', 'someone-elses-state');
    expect(failedWith(await callback(tampered, started.cookie))).toBe(
      '/login?oidc_error=state_mismatch',
    );
    expect(failedWith(await callback(back, started.cookie))).toBe('/login?oidc_error=flow_expired');
  });

  it('refuses a callback without the flow cookie, or with another browser’s', async () => {
    const started = await start();
    const back = await idp.authorize(started.url, person());
    expect(failedWith(await callback(back))).toBe('/login?oidc_error=flow_expired');
    const other = await start();
    expect(failedWith(await callback(back, other.cookie))).toBe('/login?oidc_error=state_mismatch');
    expect(failedWith(await callback(back, 'tally_oidc=unknown'))).toBe(
      '/login?oidc_error=flow_expired',
    );
  });

  it('finishes a callback once: the same redirect sent again is refused', async () => {
    const started = await start();
    const back = await idp.authorize(started.url, person());
    const first = await callback(back, started.cookie);
    expect(failedWith(first)).toBe('/login?oidc=signed-in');
    const replayed = await callback(back, started.cookie);
    expect(failedWith(replayed)).toBe('/login?oidc_error=flow_expired');
    expect(replayed.cookies.some((c) => c.name === 'tally_refresh')).toBe(false);
  });

  it('refuses a flow older than 10 minutes', async () => {
    const started = await start();
    const back = await idp.authorize(started.url, person());
    ctx.clock.advance(11 * MINUTE);
    try {
      expect(failedWith(await callback(back, started.cookie))).toBe(
        '/login?oidc_error=flow_expired',
      );
    } finally {
      ctx.clock.current = Date.now();
    }
  });

  it('refuses a code whose PKCE verifier does not match (the provider checks it)', async () => {
    const started = await start();
    const back = await idp.authorize(started.url, person());
    await ctx.database.handle.db
      .updateTable('oidc_flows')
      .set({ code_verifier: 'x'.repeat(64) })
      .execute();
    expect(failedWith(await callback(back, started.cookie))).toBe(
      '/login?oidc_error=invalid_response',
    );
  });
});

describe('what the ID token must say', () => {
  const refusedWhenTampered = async (
    tamper: (claims: Record<string, unknown>) => Record<string, unknown>,
  ) => {
    idp.tamperIdTokens = tamper;
    try {
      const who = person();
      const response = await signIn(who);
      expect(failedWith(response)).toBe('/login?oidc_error=invalid_response');
      expect(response.cookies.some((c) => c.name === 'tally_refresh')).toBe(false);
    } finally {
      idp.tamperIdTokens = null;
    }
  };

  it('accepts a token re-signed with unchanged claims (so the refusals below are the claims’)', async () => {
    idp.tamperIdTokens = (claims) => claims;
    try {
      expect(failedWith(await signIn(person()))).toBe('/login?oidc=signed-in');
    } finally {
      idp.tamperIdTokens = null;
    }
  });

  it('refuses a nonce other than the flow’s', () =>
    refusedWhenTampered((claims) => ({ ...claims, nonce: 'replayed-nonce' })));

  it('refuses another issuer', () =>
    refusedWhenTampered((claims) => ({ ...claims, iss: 'https://evil.example' })));

  it('refuses another audience', () =>
    refusedWhenTampered((claims) => ({ ...claims, aud: 'another-client' })));

  it('refuses an expired ID token', () =>
    refusedWhenTampered((claims) => ({
      ...claims,
      iat: Math.floor(Date.now() / 1000) - 7200,
      exp: Math.floor(Date.now() / 1000) - 3600,
    })));

  it('refuses an ID token issued in the future', () =>
    refusedWhenTampered((claims) => ({ ...claims, iat: Math.floor(Date.now() / 1000) + 3600 })));

  it('refuses an ID token authorized for another party (azp)', () =>
    refusedWhenTampered((claims) => ({
      ...claims,
      aud: [idp.clientId, 'another-client'],
      azp: 'another-client',
    })));

  it('refuses an azp other than this client even with this client as the only audience', () =>
    refusedWhenTampered((claims) => ({ ...claims, azp: 'another-client' })));

  it('refuses a redirect that names another issuer (RFC 9207 mix-up)', async () => {
    const started = await start();
    const back = await idp.authorize(started.url, person());
    back.searchParams.set('iss', 'https://evil.example');
    expect(failedWith(await callback(back, started.cookie))).toBe(
      '/login?oidc_error=invalid_response',
    );
  });
});

describe('closed registration', () => {
  it('makes no account while sign-up is closed or OIDC_AUTO_REGISTER=false, but still signs in a linked one', async () => {
    const who = person();
    expect(failedWith(await signIn(who))).toBe('/login?oidc=signed-in');
    for (const config of [
      { registration: 'closed' as const, oidc: oidcConfig() },
      { oidc: oidcConfig({ autoRegister: false }) },
    ]) {
      const closed = await createTestApp({
        database: ctx.database,
        config: { publicUrl: PUBLIC_URL, ...config },
      });
      closed.clock.current = Date.now();
      try {
        expect(failedWith(await signIn(person(), closed))).toBe(
          '/login?oidc_error=registration_closed',
        );
        expect(failedWith(await signIn(who, closed))).toBe('/login?oidc=signed-in');
      } finally {
        await closed.close();
      }
    }
  });
});

describe('SETUP_TOKEN before the first account', () => {
  it('lets no single sign-on make the first account, which would skip the token', async () => {
    const fresh = await createTestApp({
      config: { publicUrl: PUBLIC_URL, oidc: oidcConfig(), setupToken: 'first-start-0123456789' },
    });
    fresh.clock.current = Date.now();
    try {
      expect(failedWith(await signIn(person(), fresh))).toBe(
        '/login?oidc_error=registration_closed',
      );
      expect(await fresh.database.handle.db.selectFrom('users').select('id').execute()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

describe('a disabled account', () => {
  it('is sent back to /login with account_disabled, and signs in again once enabled', async () => {
    const who = person();
    expect(failedWith(await signIn(who))).toBe('/login?oidc=signed-in');
    const disable = (at: number | null) =>
      ctx.database.handle.db
        .updateTable('users')
        .set({ disabled_at: at })
        .where('email_lower', '=', (who.email as string).toLowerCase())
        .execute();
    await disable(Date.now());
    expect(failedWith(await signIn(who))).toBe('/login?oidc_error=account_disabled');
    await disable(null);
    expect(failedWith(await signIn(who))).toBe('/login?oidc=signed-in');
  });
});

/** A password account 6 minutes after sign-in: its proof of identity is no longer recent. */
async function staleUser(): Promise<TestUser> {
  const user = await registerUser(ctx.app);
  ctx.clock.advance(6 * MINUTE);
  const renewed = await apiClient(ctx.app, null)(authApi.refresh, {
    headers: { cookie: user.refreshCookie },
  });
  ctx.clock.current = Date.now() + 6 * MINUTE;
  return { ...user, token: renewed.json<{ accessToken: string }>().accessToken };
}

async function link(user: Pick<TestUser, 'token'>, who: LocalPerson, app = ctx) {
  const started = await apiClient(app.app, user)(oidcApi.link);
  expect(started.statusCode).toBe(200);
  const url = started.json<{ url: string }>().url;
  return callback(await idp.authorize(url, who), flowCookieOf(started), app);
}

describe('linking and unlinking in Settings', () => {
  it('links only after a recent authentication, then the provider signs in to that account', async () => {
    const stale = await staleUser();
    try {
      const refused = await apiClient(ctx.app, stale)(oidcApi.link);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'reauthentication_required' });
    } finally {
      ctx.clock.current = Date.now();
    }

    const user = await registerUser(ctx.app);
    const who = person();
    expect(failedWith(await link(user, who))).toBe('/settings?oidc=linked');
    const account = await apiClient(ctx.app, user)(accountApi.get);
    expect(account.json()).toMatchObject({ oidcLinked: true, hasPassword: true });
    const token = await accessTokenAfter(await signIn(who));
    expect(decodeJwt(token).sub).toBe(user.username);

    const twice = await apiClient(ctx.app, user)(oidcApi.link);
    expect(twice.statusCode).toBe(409);
  });

  it('refuses to link a provider account that another Tally account has', async () => {
    const who = person();
    expect(failedWith(await signIn(who))).toBe('/login?oidc=signed-in');
    const user = await registerUser(ctx.app);
    expect(failedWith(await link(user, who))).toBe('/settings?oidc_error=linked_elsewhere');
    const account = await apiClient(ctx.app, user)(accountApi.get);
    expect(account.json()).toMatchObject({ oidcLinked: false });
  });

  it('unlinks only after a recent authentication, and never the last way to sign in', async () => {
    const user = await registerUser(ctx.app);
    const who = person();
    await link(user, who);
    const stale = await staleUser();
    try {
      const refused = await apiClient(ctx.app, stale)(oidcApi.unlink);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'reauthentication_required' });
    } finally {
      ctx.clock.current = Date.now();
    }
    const unlinked = await apiClient(ctx.app, user)(oidcApi.unlink);
    expect(unlinked.statusCode).toBe(204);
    expect((await apiClient(ctx.app, user)(accountApi.get)).json()).toMatchObject({
      oidcLinked: false,
    });

    const onlyOidc = await accessTokenAfter(await signIn(person()));
    const lastWay = await apiClient(ctx.app, { token: onlyOidc })(oidcApi.unlink);
    expect(lastWay.statusCode).toBe(409);
    expect(lastWay.json()).toEqual({ error: expect.stringMatching(/password/) });
  });
});

describe('an account made with someone else’s address', () => {
  it('is not entered by the provider identity its maker linked once the owner resets the password', async () => {
    const smtp = await startLocalSmtp();
    const mailing = await createTestApp({
      database: ctx.database,
      config: {
        publicUrl: PUBLIC_URL,
        oidc: oidcConfig(),
        smtpUrl: smtp.url,
        mailFrom: 'tally@example.com',
      },
    });
    mailing.clock.current = Date.now();
    try {
      // The attacker signs up with the victim's address, ignores the verification mail and links
      // their own provider identity in Settings.
      const attacker = await registerUser(mailing.app);
      const victimEmail = attacker.email;
      await smtp.take(victimEmail);
      const attackerAtProvider = person();
      expect(failedWith(await link(attacker, attackerAtProvider, mailing))).toBe(
        '/settings?oidc=linked',
      );

      // The victim, told the address is taken, resets the password with the mailed link.
      const call = apiClient(mailing.app, null);
      await call(authApi.requestPasswordReset, { body: { email: victimEmail } });
      const mail = await smtp.take(victimEmail);
      expect(mail.text).toMatch(/If the address was never verified, the link is removed/);
      const reset = await call(authApi.resetPassword, {
        body: { token: linkToken(mail, '/reset-password'), password: 'the owner’s own password' },
      });
      expect(reset.statusCode).toBe(204);

      // The attacker's provider identity no longer enters the account (it makes one of its own,
      // with its own address).
      const again = await signIn(attackerAtProvider, mailing);
      const attackerToken = await accessTokenAfter(again, mailing);
      expect(decodeJwt(attackerToken).sub).not.toBe(attacker.username);
      expect(
        (await apiClient(mailing.app, { token: attackerToken })(accountApi.get)).json(),
      ).toMatchObject({ email: attackerAtProvider.email });
      const owner = await call(authApi.login, {
        body: { username: attacker.username, password: 'the owner’s own password' },
      });
      const token = owner.json<{ accessToken: string }>().accessToken;
      expect((await apiClient(mailing.app, { token })(accountApi.get)).json()).toMatchObject({
        email: victimEmail,
        emailVerified: true,
        oidcLinked: false,
      });
    } finally {
      await mailing.close();
      await smtp.close();
    }
  });
});

describe('re-authentication with the provider', () => {
  it('lets an account without a password prove itself again, with the linked identity only', async () => {
    const who = person();
    const signedIn = await signIn(who);
    ctx.clock.advance(6 * MINUTE);
    const renewed = await apiClient(ctx.app, null)(authApi.refresh, {
      headers: { cookie: refreshCookieOf(signedIn) },
    });
    const token = renewed.json<{ accessToken: string }>().accessToken;
    const call = apiClient(ctx.app, { token });
    const makeToken = () =>
      call(tokensApi.create, { body: { name: 'Script', scope: 'read', expiresInDays: null } });
    try {
      expect((await makeToken()).statusCode).toBe(403);

      const badReturn = await call(oidcApi.reauthenticate, {
        body: { returnTo: '//evil.example/' },
      });
      expect(badReturn.statusCode).toBe(400);
      expect(badReturn.json()).toEqual({
        error: expect.stringMatching(/returnTo/),
        code: 'invalid_format',
        field: 'returnTo',
      });

      const prove = async (as: LocalPerson) => {
        const started = await call(oidcApi.reauthenticate, {
          body: { returnTo: '/settings/tokens' },
        });
        expect(started.statusCode).toBe(200);
        const back = await idp.authorize(started.json<{ url: string }>().url, as);
        return callback(back, flowCookieOf(started));
      };
      // Real time for the provider's tokens; the app's clock stays 6 minutes on.
      expect(failedWith(await prove(person()))).toBe('/settings?oidc_error=wrong_account');
      expect((await makeToken()).statusCode).toBe(403);
      expect(failedWith(await prove(who))).toBe('/settings/tokens');
      expect((await makeToken()).statusCode).toBe(201);
    } finally {
      ctx.clock.current = Date.now();
    }
  });

  it('lets an account that signs in only with the provider delete itself after a fresh sign-in there', async () => {
    const who = person();
    const signedIn = await signIn(who);
    ctx.clock.advance(6 * MINUTE);
    try {
      const renewed = await apiClient(ctx.app, null)(authApi.refresh, {
        headers: { cookie: refreshCookieOf(signedIn) },
      });
      const call = apiClient(ctx.app, {
        token: renewed.json<{ accessToken: string }>().accessToken,
      });
      const remove = () => call(accountApi.remove, { body: {} });
      const stale = await remove();
      expect(stale.statusCode).toBe(403);
      expect(stale.json()).toMatchObject({ code: 'reauthentication_required' });

      const started = await call(oidcApi.reauthenticate, { body: { returnTo: '/settings' } });
      const back = await idp.authorize(started.json<{ url: string }>().url, who);
      expect(failedWith(await callback(back, flowCookieOf(started)))).toBe('/settings');
      expect((await remove()).statusCode).toBe(204);
    } finally {
      ctx.clock.current = Date.now();
    }
  });

  it('answers 409 for an account with no linked provider account', async () => {
    const user = await registerUser(ctx.app);
    const refused = await apiClient(ctx.app, user)(oidcApi.reauthenticate, { body: {} });
    expect(refused.statusCode).toBe(409);
  });
});

describe('two-factor codes', () => {
  it('asks an account with codes on for one after the provider, unless the provider did MFA', async () => {
    const who = person();
    const token = await accessTokenAfter(await signIn(who));
    const call = apiClient(ctx.app, { token });
    // A fresh sign-in at the provider is the recent authentication turning codes on needs.
    const setup = await call(twoFactorApi.setup);
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const code = () =>
      TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: ctx.clock.current });
    const enabled = await call(twoFactorApi.enable, { body: { code: code() } });
    expect(enabled.statusCode, enabled.body).toBe(201);
    ctx.clock.advance(30_000);

    const second = await signIn(who);
    const mfaToken = /^\/login#mfa=([\w-]+)$/.exec(failedWith(second))?.[1];
    expect(mfaToken).toBeDefined();
    expect(second.cookies.some((c) => c.name === 'tally_refresh')).toBe(false);
    const mfaCookie = second.cookies.find((c) => c.name === 'tally_mfa');
    const done = await apiClient(ctx.app, null).unchecked(authApi.mfa, {
      body: { mfaToken, code: code() },
      headers: { cookie: `tally_mfa=${mfaCookie?.value}` },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(decodeJwt(done.json<{ accessToken: string }>().accessToken).sub).toBe(
      decodeJwt(token).sub,
    );

    // The provider's own MFA (its amr) stands for the code while TRUST_PROVIDER_MFA is on.
    const trusted = await signIn({ ...who, amr: ['pwd', 'otp'] });
    expect(failedWith(trusted)).toBe('/login?oidc=signed-in');
    expect(decodeJwt(await accessTokenAfter(trusted)).sub).toBe(decodeJwt(token).sub);
  });
});

describe('signing out', () => {
  it('ends the session and answers the provider’s logout URL for an OIDC session only', async () => {
    const signedIn = await signIn(person());
    const cookie = refreshCookieOf(signedIn);
    const out = await apiClient(ctx.app, null)(oidcApi.logout, { headers: { cookie } });
    expect(out.statusCode).toBe(200);
    const url = new URL(out.json<{ endSessionUrl: string }>().endSessionUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/login`);
    const refresh = await apiClient(ctx.app, null)(authApi.refresh, { headers: { cookie } });
    expect(refresh.statusCode).toBe(401);

    const user = await registerUser(ctx.app);
    const password = await apiClient(ctx.app, null)(oidcApi.logout, {
      headers: { cookie: user.refreshCookie },
    });
    expect(password.json()).toEqual({ endSessionUrl: null });
  });
});
