import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Clock } from '../shared/clock.js';
import { unauthorized } from '../shared/errors.js';

export interface GoogleIdentity {
  subject: string;
  email: string;
  emailVerified: boolean;
  /** Google Workspace domain, when Google manages the account. */
  hostedDomain: string | null;
}

export interface GoogleVerifierOptions {
  clientId: string;
  jwksUrl: string;
  issuers: string[];
  clock: Clock;
}

/**
 * Verifies a Google ID token: signature against Google's published keys (fetched once, cached,
 * re-fetched when an unknown key id appears, so rotation is picked up), audience = our client
 * id, issuer, expiry and a verified e-mail. OAuth access tokens are not JWTs and fail here.
 */
export function createGoogleVerifier(options: GoogleVerifierOptions) {
  const keys = createRemoteJWKSet(new URL(options.jwksUrl), {
    timeoutDuration: 5_000,
    cooldownDuration: 30_000,
    cacheMaxAge: 6 * 60 * 60 * 1000,
  });
  return async function verify(token: string): Promise<GoogleIdentity> {
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
    const verified = payload.email_verified === true || payload.email_verified === 'true';
    if (!verified || typeof payload.email !== 'string' || typeof payload.sub !== 'string') {
      throw unauthorized(
        'Google sign-in failed: the Google account has no verified e-mail address',
      );
    }
    return {
      subject: payload.sub,
      email: payload.email,
      emailVerified: verified,
      hostedDomain: typeof payload.hd === 'string' ? payload.hd : null,
    };
  };
}
