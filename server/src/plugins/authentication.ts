import { createSecretKey } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS } from '@tally/contract';
import fp from 'fastify-plugin';
import { SignJWT, jwtVerify } from 'jose';
import type { Clock } from '../shared/clock.js';
import { unauthorized } from '../shared/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
  }
  interface FastifyRequest {
    /** The signed-in user; set on every route that is not public. */
    user: AuthenticatedUser;
  }
  interface FastifyContextConfig {
    /** Routes reachable without a bearer token. */
    public?: boolean;
  }
}

export interface AuthenticatedUser {
  id: number;
  username: string;
}

export interface AccessTokens {
  sign(user: AuthenticatedUser): Promise<string>;
  /** The account the token was issued to; throws a 401 for any bad token. */
  verify(token: string): Promise<AuthenticatedUser>;
}

const ALGORITHM = 'HS256';
const ISSUER = 'tally';
const AUDIENCE = 'tally-web';

export function createAccessTokens(secret: string, clock: Clock): AccessTokens {
  // A KeyObject, not raw bytes: jose converts it to a CryptoKey once and caches that, where raw
  // bytes are imported again on every sign and verify (bench/, docs/performance.md).
  const key = createSecretKey(Buffer.from(secret));
  return {
    async sign({ id, username }) {
      const now = Math.floor(clock() / 1000);
      // uid ties the token to this account: a later account with the same name is another uid.
      return new SignJWT({ roles: ['user'], uid: id })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(username)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + ACCESS_TOKEN_TTL_SECONDS)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
          // jose checks exp only when present: require it, sub and uid.
          requiredClaims: ['exp', 'sub', 'uid'],
          currentDate: new Date(clock()),
        });
        if (typeof payload.sub !== 'string' || payload.sub === '') throw new Error('no subject');
        if (!Number.isSafeInteger(payload.uid)) throw new Error('no user id');
        return { id: payload.uid as number, username: payload.sub };
      } catch {
        throw unauthorized('Invalid or expired token');
      }
    },
  };
}

export interface AuthenticationPluginOptions {
  secret: string;
  clock: Clock;
}

/**
 * Secure by default: every matched route needs a valid bearer token unless its config says
 * `public: true`. Unmatched paths fall through to the not-found handler (404).
 */
export const authenticationPlugin = fp<AuthenticationPluginOptions>(
  async (app, { secret, clock }) => {
    const tokens = createAccessTokens(secret, clock);
    app.decorate('accessTokens', tokens);
    app.decorateRequest('user', null as unknown as AuthenticatedUser);

    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.url === undefined || request.routeOptions.config.public) return;
      const header = request.headers.authorization;
      const match = header ? /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header) : null;
      if (!match?.[1]) throw unauthorized('Authentication required');
      const claimed = await tokens.verify(match[1]);
      const user = await app.db
        .selectFrom('users')
        .select(['id', 'username'])
        .where('id', '=', claimed.id)
        .executeTakeFirst();
      // A deleted account, or another account that reuses a deleted account's name.
      if (!user || user.username.toLowerCase() !== claimed.username.toLowerCase()) {
        throw unauthorized('Invalid or expired token');
      }
      request.user = user;
    });
  },
  { name: 'authentication', dependencies: ['database'] },
);
