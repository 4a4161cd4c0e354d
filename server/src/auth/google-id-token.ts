import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Counters } from '../plugins/counters.js';
import type { Clock } from '../shared/clock.js';
import { cookieName, isSecureRequest } from '../shared/cookies.js';
import { unauthorized } from '../shared/errors.js';
import { providerEmail } from './provider-email.js';

export interface GoogleIdentity {
  subject: string;
  email: string;
  emailVerified: boolean;
  /** Google Workspace domain, when Google manages the account. */
  hostedDomain: string | null;
  /**
   * Whether the token's `amr` (RFC 8176) says the sign-in used more than one factor ("mfa"):
   * then, when the server trusts it, Tally does not ask its own second step (auth/sign-in.ts).
   */
  didMfa: boolean;
}

export interface GoogleVerifierOptions {
  clientId: string;
  jwksUrl: string;
  issuers: string[];
  clock: Clock;
  /** Where used tokens are remembered until they expire (Redis when there is one). */
  counters: Pick<Counters, 'claim'>;
}

/** What the ID token must carry besides Google's own claims. */
interface GoogleTokenExpectations {
  /**
   * The nonce of the browser that sent the token: `takeGoogleNonce(request, reply)`. Required,
   * so that no caller forgets it; undefined (no cookie) refuses every token.
   */
  nonce: string | undefined;
}

export type GoogleVerifier = (
  token: string,
  expected: GoogleTokenExpectations,
) => Promise<GoogleIdentity>;

/**
 * Verifies a Google ID token: signature against Google's published keys (fetched once, cached,
 * re-fetched when an unknown key id appears, so rotation is picked up), audience = our client
 * id, issuer, expiry, a verified e-mail, and a `nonce` claim equal to the nonce of the browser
 * that sends it (see `issueGoogleNonce`), so that a captured token cannot be replayed from
 * elsewhere. Each token is taken once: a request captured whole (token and nonce cookie) and sent
 * again is refused until the token expires, when it would fail anyway. OAuth access tokens are
 * not JWTs and fail here.
 */
export function createGoogleVerifier(options: GoogleVerifierOptions): GoogleVerifier {
  const keys = createRemoteJWKSet(new URL(options.jwksUrl), {
    timeoutDuration: 5_000,
    cooldownDuration: 30_000,
    cacheMaxAge: 6 * 60 * 60 * 1000,
  });
  return async function verify(token, expected) {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        algorithms: ['RS256', 'ES256'],
        audience: options.clientId,
        issuer: options.issuers,
        requiredClaims: ['exp', 'sub', 'email'],
        currentDate: new Date(options.clock()),
      }));
    } catch {
      throw unauthorized('Google sign-in failed: the credential is not valid');
    }
    if (!sameNonce(payload.nonce, expected.nonce)) {
      throw unauthorized(
        'Google sign-in failed: the credential was not requested by this browser - please try again',
      );
    }
    const verified = payload.email_verified === true || payload.email_verified === 'true';
    if (!verified || typeof payload.email !== 'string' || typeof payload.sub !== 'string') {
      throw unauthorized(
        'Google sign-in failed: the Google account has no verified e-mail address',
      );
    }
    const email = providerEmail(payload.email);
    if (email === null) {
      throw unauthorized(
        'Google sign-in failed: the e-mail address of the Google account is not one Tally can use',
      );
    }
    // Last, so that only a token good in every other respect is spent.
    const used = await options.counters.claim(
      `google-token:${createHash('sha256').update(token).digest('base64url')}`,
      Math.max(1_000, (payload.exp ?? 0) * 1000 - options.clock()),
    );
    if (!used.claimed) {
      throw unauthorized(
        'Google sign-in failed: this credential was already used - please try again',
      );
    }
    return {
      subject: payload.sub,
      email,
      emailVerified: verified,
      hostedDomain: typeof payload.hd === 'string' ? payload.hd : null,
      didMfa: Array.isArray(payload.amr) && payload.amr.includes('mfa'),
    };
  };
}

// --- The nonce: binds an ID token to the browser that asked Google for it ----------------------

/** The nonce cookie's name (with __Secure- over HTTPS) and lifetime. */
const NONCE_COOKIE = 'tally_google_nonce';
const GOOGLE_NONCE_MAX_AGE_SECONDS = 10 * 60;
/** Path /api: POST /api/auth/google and POST /api/account/google both read it. */
const NONCE_COOKIE_PATH = '/api';
/** 32 random bytes, base64url. */
const BINDING_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (binding: string) => createHash('sha256').update(binding).digest('base64url');

/**
 * The cookie holds a random secret and the nonce handed to Google is its SHA-256 hash. A captured
 * ID token shows its nonce, but replaying it needs a cookie whose hash that is, which only the
 * browser that started the sign-in has (httpOnly, SameSite=Strict). (A cookie holding the nonce
 * itself would bind nothing: whoever holds the token can send any cookie.)
 */
function bindingOf(request: FastifyRequest): string | undefined {
  const value = request.cookies[cookieName(request, NONCE_COOKIE)];
  return value !== undefined && BINDING_PATTERN.test(value) ? value : undefined;
}

/**
 * Starts a Google sign-in (GET /api/auth/google/nonce): answers the nonce to pass to Google
 * Identity Services and sets the cookie it is bound to for 10 minutes. A live cookie is kept (and
 * its 10 minutes start again), so every tab of the browser gets the same nonce and one tab's
 * /login does not spoil another's. The route's plugin must register @fastify/cookie.
 */
export function issueGoogleNonce(request: FastifyRequest, reply: FastifyReply): string {
  const binding = bindingOf(request) ?? randomBytes(32).toString('base64url');
  reply.setCookie(cookieName(request, NONCE_COOKIE), binding, {
    httpOnly: true,
    sameSite: 'strict',
    secure: isSecureRequest(request),
    path: NONCE_COOKIE_PATH,
    maxAge: GOOGLE_NONCE_MAX_AGE_SECONDS,
  });
  return hashOf(binding);
}

/**
 * The nonce this request's browser was given, or undefined without a (valid) cookie; clears the
 * cookie, so each nonce serves one sign-in attempt. For `verify(token, { nonce })`.
 */
export function takeGoogleNonce(request: FastifyRequest, reply: FastifyReply): string | undefined {
  const name = cookieName(request, NONCE_COOKIE);
  if (request.cookies[name] === undefined) return undefined;
  reply.clearCookie(name, {
    path: NONCE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: isSecureRequest(request),
  });
  const binding = bindingOf(request);
  return binding === undefined ? undefined : hashOf(binding);
}

/** The token's nonce claim equals the expected nonce, compared in constant time. */
function sameNonce(claim: unknown, expected: string | undefined): boolean {
  if (typeof claim !== 'string' || expected === undefined) return false;
  const a = Buffer.from(claim);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
