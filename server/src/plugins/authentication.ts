import { createSecretKey } from 'node:crypto';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  PERSONAL_TOKEN_PREFIX,
  RECENT_AUTH_MINUTES,
} from '@tally/contract';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { createVerifier } from 'fast-jwt';
import { SignJWT } from 'jose';
import type { Clock } from '../shared/clock.js';
import { AppError, unauthorized } from '../shared/errors.js';
import {
  personalTokenAuthenticator,
  personalTokenOnAuthPath,
  SESSION_ONLY,
  type TokenUser,
} from './personal-tokens.js';
import { liveSession } from './queries.js';

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
    /**
     * Whether the request's bearer token would still be accepted now, for the same account: a
     * long-lived answer (GET /api/events) asks at each heartbeat, so an expired token or an
     * ended session stops it.
     */
    stillAuthenticated(request: FastifyRequest): Promise<boolean>;
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

interface SessionUser {
  id: number;
  username: string;
  /** The session the access token belongs to (its `sid` claim). */
  sessionId: string;
}

/** A session's proofs, read by the per-request lookup with it. */
interface SessionProofs {
  /** The last proof of the password or a fresh Google sign-in (epoch ms), or null. */
  reauthenticatedAt: number | null;
}

/** Signed in through a session (a JWT), or a personal API token: that has no session (null). */
type AuthenticatedUser = (SessionUser & SessionProofs) | TokenUser;

const RECENT_AUTH_MS = RECENT_AUTH_MINUTES * 60_000;

/** A session's proof is too old (or a personal token): the client asks for the password again. */
const reauthenticationRequired = () =>
  new AppError(
    403,
    `Confirm it's you: this change needs your password (or, for an account without one, a fresh sign-in with Google or single sign-on) from the last ${RECENT_AUTH_MINUTES} minutes`,
    {},
    'reauthentication_required',
  );

const PASSWORD_CHANGE_REQUIRED =
  'Choose a new password first: this one was set by the operator for one sign-in only';

export interface AccessTokens {
  sign(user: SessionUser): Promise<string>;
  /** The account the token was issued to; throws a 401 for any bad token. */
  verify(token: string): Promise<SessionUser>;
}

const ALGORITHM = 'HS256';
const ISSUER = 'tally';
const AUDIENCE = 'tally-web';

function createAccessTokens(secret: string, clock: Clock): AccessTokens {
  // jose signs (at sign-in and refresh only); fast-jwt checks every request, synchronously
  // with node:crypto (docs/decisions/093-access-tokens-through-fast-jwt.md).
  const key = createSecretKey(Buffer.from(secret));
  const check = createVerifier({
    key: secret,
    algorithms: [ALGORITHM],
    allowedIss: ISSUER,
    allowedAud: AUDIENCE,
    requiredClaims: ['exp', 'sub', 'uid', 'sid'],
    // Times are checked below against the app's clock, which tests move; fast-jwt reads
    // Date.now() or a timestamp fixed when the verifier is made.
    ignoreExpiration: true,
    ignoreNotBefore: true,
    cache: false,
  });
  return {
    async sign({ id, username, sessionId }) {
      const now = Math.floor(clock() / 1000);
      // uid ties the token to this account: a later account with the same name is another uid;
      // sid to its session, so that ending the session ends the token.
      return new SignJWT({ roles: ['user'], uid: id, sid: sessionId })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(username)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + ACCESS_TOKEN_TTL_SECONDS)
        .sign(key);
    },
    async verify(token) {
      let payload: Record<string, unknown>;
      try {
        payload = check(token) as Record<string, unknown>;
      } catch {
        throw unauthorized('Invalid or expired token');
      }
      const claimed = accountOf(payload, Math.floor(clock() / 1000));
      if (!claimed) throw unauthorized('Invalid or expired token');
      return claimed;
    },
  };
}

/**
 * The account of a token whose signature, algorithm, issuer and audience fast-jwt has checked:
 * unexpired (exp > now, no tolerance), active (nbf <= now), with the claims Tally signs.
 */
function accountOf(payload: Record<string, unknown>, nowSeconds: number): SessionUser | null {
  const { exp, nbf, iat, sub, uid, sid } = payload;
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp <= nowSeconds) return null;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowSeconds)) return null;
  if (iat !== undefined && typeof iat !== 'number') return null;
  if (typeof sub !== 'string' || sub === '') return null;
  if (typeof uid !== 'number' || !Number.isSafeInteger(uid)) return null;
  if (typeof sid !== 'string' || sid === '') return null;
  return { id: uid, username: sub, sessionId: sid };
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
    app.decorateRequest<AuthenticatedUser, 'user'>('user', null as unknown as AuthenticatedUser);

    const personalToken = personalTokenAuthenticator(app, clock);

    /**
     * The account of the request's bearer token; throws the 401, 403 or 429 that refuses it. A
     * session that must change its one-time password reaches only the routes that allow it.
     */
    async function authenticate(request: FastifyRequest): Promise<AuthenticatedUser> {
      const header = request.headers.authorization;
      const match = header ? /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header) : null;
      if (!match?.[1]) throw unauthorized('Authentication required');
      // A personal API token, told apart by its prefix: the JWT path costs one startsWith more.
      if (match[1].startsWith(PERSONAL_TOKEN_PREFIX)) return personalToken(match[1], request);
      const claimed = await tokens.verify(match[1]);
      const [session] = await liveSession(app.db, {
        sessionId: claimed.sessionId,
        userId: claimed.id,
        now: clock(),
      });
      // An ended or expired session, or a deleted account (its sessions went with it).
      if (!session) throw unauthorized('Invalid or expired token');
      if (session.password_change_required && !request.routeOptions.config.beforePasswordChange) {
        throw new AppError(403, PASSWORD_CHANGE_REQUIRED, {}, 'password_change_required');
      }
      return { ...claimed, reauthenticatedAt: session.reauthenticated_at };
    }

    /**
     * The guard of `recentAuth` routes (contract Route.recentAuth), one for every sensitive
     * change: the session's last proof is at most RECENT_AUTH_MINUTES old. Personal tokens have
     * no session, so they never pass (docs/decisions/071-recent-authentication.md).
     */
    function requireRecentAuth(user: AuthenticatedUser): void {
      if (user.sessionId === null) throw reauthenticationRequired();
      const { reauthenticatedAt } = user as SessionProofs;
      if (reauthenticatedAt === null || clock() - reauthenticatedAt > RECENT_AUTH_MS) {
        throw reauthenticationRequired();
      }
    }

    app.decorate('stillAuthenticated', async (request: FastifyRequest) => {
      try {
        return (await authenticate(request)).id === request.user.id;
      } catch {
        return false;
      }
    });

    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.url === undefined) return;
      if (request.routeOptions.config.public) {
        // /api/auth signs in with passwords and cookies: a personal token there is refused.
        if (personalTokenOnAuthPath(request)) {
          throw new AppError(403, SESSION_ONLY);
        }
        return;
      }
      request.user = await authenticate(request);
      if (request.routeOptions.config.recentAuth) requireRecentAuth(request.user);
    });
  },
  { name: 'authentication', dependencies: ['database'] },
);
