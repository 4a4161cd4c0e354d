import { authApi, todosApi } from '@tally/contract';
import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type UncheckedInput } from '../test/api-client.js';
import {
  createTestApp,
  refreshCookieOf,
  registerUser,
  TEST_SECRET,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';

/**
 * Token attacks beyond those in auth/auth.test.ts (which covers a missing, malformed, unsigned,
 * wrongly signed, tampered-subject, expired and exp-less token, wrong iss/aud, refresh replay
 * after rotation and refresh after logout). Every one must end in a 401 {error}.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

const key = new TextEncoder().encode(TEST_SECRET);
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const todos = (token: string) =>
  apiClient(ctx.app, null)(todosApi.list, { headers: { authorization: `Bearer ${token}` } });
const refresh = (cookie: string) =>
  apiClient(ctx.app, null)(authApi.refresh, { headers: { cookie } });

async function expect401(token: string, label: string) {
  const response = await todos(token);
  expect(response.statusCode, label).toBe(401);
  expect(response.json<{ error: string }>().error, label).toMatch(/token|Authentication/);
}

/** A token exactly like Tally's, with the given header and claims changes. */
function claimsOf(user: TestUser, extra: Record<string, unknown> = {}) {
  return { ...decodeJwt(user.token), ...extra };
}

describe('forged and confused tokens', () => {
  it('refuses alg "none" in every spelling, with or without the original signature', async () => {
    const user = await registerUser(ctx.app);
    const [, payload, signature] = user.token.split('.');
    for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
      const header = b64({ alg, typ: 'JWT' });
      await expect401(`${header}.${payload}.`, `${alg} empty signature`);
      await expect401(`${header}.${payload}.${signature}`, `${alg} original signature`);
    }
  });

  it('pins HS256: other HMAC sizes with the right secret, RS256/ES256 and embedded keys fail', async () => {
    const user = await registerUser(ctx.app);
    const claims = claimsOf(user);
    for (const alg of ['HS384', 'HS512']) {
      await expect401(await new SignJWT(claims).setProtectedHeader({ alg }).sign(key), alg);
    }
    // An attacker's own RSA/EC key, offered in the header (jwk / jku / x5u injection).
    for (const alg of ['RS256', 'ES256', 'PS256']) {
      const pair = await generateKeyPair(alg);
      const jwk = await exportJWK(pair.publicKey);
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg, jwk, jku: 'http://127.0.0.1:1/jwks', x5u: 'http://x/' })
        .sign(pair.privateKey);
      await expect401(token, `${alg} with embedded key`);
    }
  });

  it('refuses the HS/RS key-confusion trick: an HMAC keyed with a public key', async () => {
    const user = await registerUser(ctx.app);
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const token = await new SignJWT(claimsOf(user))
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(pem));
    await expect401(token, 'HS256 keyed with an RSA public key');
  });

  it('refuses tampered payloads: later expiry, other roles, other subject, kid/crit games', async () => {
    const user = await registerUser(ctx.app);
    const victim = await registerUser(ctx.app);
    const [header, , signature] = user.token.split('.');
    const base = claimsOf(user);
    for (const change of [
      { exp: Number(base.exp) + 365 * 24 * 3600 },
      { roles: ['admin'] },
      { sub: victim.username },
      { sub: victim.username.toUpperCase() },
      { aud: ['tally-web', 'other'] },
    ]) {
      await expect401(
        `${header}.${b64({ ...base, ...change })}.${signature}`,
        JSON.stringify(change),
      );
    }
    const withKid = await new SignJWT(base)
      .setProtectedHeader({ alg: 'HS256', kid: '../../../../dev/null' })
      .sign(new TextEncoder().encode(''.padEnd(32, 'x')));
    await expect401(withKid, 'kid path traversal with another key');
    const withCrit = await new SignJWT(base)
      .setProtectedHeader({ alg: 'HS256', crit: ['x-unknown'], 'x-unknown': 1 } as never)
      .sign(key)
      .catch(() => null);
    if (withCrit) await expect401(withCrit, 'crit header');
  });

  it('refuses a token that is not yet valid (nbf in the future)', async () => {
    const user = await registerUser(ctx.app);
    const now = Math.floor(ctx.clock.now() / 1000);
    const token = await new SignJWT(claimsOf(user, { nbf: now + 600 }))
      .setProtectedHeader({ alg: 'HS256' })
      .sign(key);
    await expect401(token, 'nbf in 10 minutes');
    ctx.clock.advance(601 * 1000);
    // Valid once its time has come (and before exp), which shows the nbf check is the cause.
    const later = await new SignJWT(claimsOf(user, { exp: now + 1200, nbf: now + 600 }))
      .setProtectedHeader({ alg: 'HS256' })
      .sign(key);
    expect((await todos(later)).statusCode).toBe(200);
  });

  it('refuses a token one second after exp, with no clock tolerance', async () => {
    const user = await registerUser(ctx.app);
    const { exp } = decodeJwt(user.token);
    ctx.clock.set(new Date(Number(exp) * 1000 - 1000).toISOString());
    expect((await todos(user.token)).statusCode).toBe(200);
    ctx.clock.set(new Date(Number(exp) * 1000).toISOString());
    await expect401(user.token, 'at exp');
  });

  it('ignores tokens anywhere but the Authorization header', async () => {
    const user = await registerUser(ctx.app);
    const requests: UncheckedInput[] = [
      { query: { access_token: user.token } },
      { headers: { cookie: `token=${user.token}` } },
      { headers: { authorization: `bearer ${user.token}` } },
      { headers: { authorization: `Bearer ${user.token} ${user.token}` } },
      { headers: { authorization: `Bearer ${user.token}x` } },
    ];
    for (const request of requests) {
      const response = await apiClient(ctx.app, null).unchecked(todosApi.list, request);
      expect(response.statusCode, JSON.stringify(request)).toBe(401);
    }
  });
});

describe('tokens of deleted users', () => {
  const deleteUser = async (username: string) =>
    ctx.database.handle.db.deleteFrom('users').where('username', '=', username).execute();

  it('refuses the access and refresh tokens of a deleted user', async () => {
    const user = await registerUser(ctx.app);
    expect((await todos(user.token)).statusCode).toBe(200);
    await deleteUser(user.username);
    await expect401(user.token, 'deleted user');
    expect((await refresh(user.refreshCookie)).statusCode).toBe(401);
  });

  it('does not let a deleted user’s token act for a new account with the same name', async () => {
    const user = await registerUser(ctx.app);
    await apiClient(ctx.app, user)(todosApi.create, { body: { title: 'mine' } });
    await deleteUser(user.username);
    ctx.clock.advance(1000);
    const newcomer = await registerUser(ctx.app, user.username);
    await apiClient(ctx.app, newcomer)(todosApi.create, { body: { title: 'new' } });
    await expect401(user.token, 'old token, same username, new account');
    expect((await todos(newcomer.token)).json()).toHaveLength(1);
  });
});

describe('refresh tokens', () => {
  it('lets only one of two concurrent refreshes with the same cookie win', async () => {
    const user = await registerUser(ctx.app);
    const results = await Promise.all([refresh(user.refreshCookie), refresh(user.refreshCookie)]);
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    for (const r of results) expect([200, 401]).toContain(r.statusCode);
    // Whatever the interleaving, the original cookie is spent.
    expect((await refresh(user.refreshCookie)).statusCode).toBe(401);
  });

  it('revokes the family when a rotated-away token is replayed after several rotations', async () => {
    const user = await registerUser(ctx.app);
    let cookie = user.refreshCookie;
    const spent: string[] = [];
    for (let i = 0; i < 3; i++) {
      spent.push(cookie);
      cookie = refreshCookieOf(await refresh(cookie));
    }
    expect((await refresh(spent[1] as string)).statusCode).toBe(401);
    expect((await refresh(cookie)).statusCode).toBe(401);
    const rows = await ctx.database.handle.db
      .selectFrom('refresh_tokens')
      .innerJoin('users', 'users.id', 'refresh_tokens.user_id')
      .select('refresh_tokens.revoked_at')
      .where('users.username', '=', user.username)
      .execute();
    expect(rows.length).toBe(4);
    expect(rows.every((r) => r.revoked_at !== null)).toBe(true);
  });

  it('refuses a refresh token in a malformed or doubled cookie', async () => {
    const user = await registerUser(ctx.app);
    const value = user.refreshCookie.split('=')[1] as string;
    for (const cookie of [
      `tally_refresh=${value}x`,
      `tally_refresh=${value.slice(0, -1)}`,
      `tally_refresh="${value}' or '1'='1"`,
      `tally_refresh=${'A'.repeat(4000)}`,
    ]) {
      expect((await refresh(cookie)).statusCode, cookie.slice(0, 40)).toBe(401);
    }
  });
});
