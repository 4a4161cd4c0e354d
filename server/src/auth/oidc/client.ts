import type * as Oidc from 'openid-client';
import type { OidcConfig } from '../../config.js';
import { onFirstUse } from '../../shared/on-first-use.js';
import { providerEmail } from '../provider-email.js';

/** How far ahead of this server's clock a provider's may be. */
const CLOCK_SKEW_SECONDS = 60;

/** openid-client, loaded at the first sign-in through the provider (not at start, not without OIDC). */
const loadOpenIdClient = onFirstUse(() => import('openid-client'));

/** The provider's identity of a person, from a verified ID token (and UserInfo for the e-mail). */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  /** Null when the provider shares none, or one registration would refuse (provider-email.ts). */
  email: string | null;
  /** Only a literal `email_verified: true` counts. */
  emailVerified: boolean;
  /** The ID token's `amr` as sent (see provider-mfa.ts). */
  amr: unknown;
  /** The raw ID token: the id_token_hint of RP-initiated logout. */
  idToken: string;
}

/** Why a callback failed, in the terms of contract OIDC_FAILURES. */
export class OidcFailure extends Error {
  constructor(
    readonly failure: 'provider_error' | 'invalid_response' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'OidcFailure';
  }
}

export interface OidcClient {
  /** The authorization URL of a new flow (PKCE S256, state, nonce). */
  authorizationUrl(checks: { state: string; nonce: string; codeVerifier: string }): Promise<URL>;
  /**
   * Exchanges the code of the callback URL: openid-client checks the state, the `iss` response
   * parameter (RFC 9207, when the provider sends it), PKCE (the provider does, against the
   * verifier), and the ID token's signature, iss, aud, exp and nonce; azp and a future iat are
   * checked here.
   */
  finish(
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<OidcIdentity>;
  /** The provider's logout URL for this ID token, or null when it has no end_session_endpoint. */
  endSessionUrl(idToken: string): Promise<string | null>;
}

/**
 * openid-client 6 over the configured provider. Discovery happens at the first use and is kept for
 * the process (each process discovers on its own: nothing here is shared state); a failed
 * discovery is tried again at the next use, so Tally starts even while the provider is down.
 */
export function createOidcClient(config: OidcConfig, publicUrl: string): OidcClient {
  const redirectUri = `${publicUrl}/api/auth/oidc/callback`;
  let discovered: Promise<Oidc.Configuration> | null = null;

  const configuration = (): Promise<Oidc.Configuration> => {
    discovered ??= loadOpenIdClient()
      .then((oidc) =>
        oidc.discovery(
          new URL(config.issuer),
          config.clientId,
          { redirect_uris: [redirectUri], response_types: ['code'] },
          config.clientSecret === null ? oidc.None() : oidc.ClientSecretBasic(config.clientSecret),
          {
            timeout: 10,
            // http is accepted for loopback issuers only (config.ts refuses any other).
            execute: [
              ...(config.issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : []),
              // Verify the ID token's signature even though it comes straight from the token endpoint.
              oidc.enableNonRepudiationChecks,
            ],
          },
        ),
      )
      .catch((error: unknown) => {
        discovered = null;
        throw new OidcFailure('unavailable', `OIDC discovery failed: ${String(error)}`);
      });
    return discovered;
  };

  return {
    async authorizationUrl({ state, nonce, codeVerifier }) {
      const settings = await configuration();
      const oidc = await loadOpenIdClient();
      return oidc.buildAuthorizationUrl(settings, {
        redirect_uri: redirectUri,
        scope: config.scopes,
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
    },

    async finish(callbackUrl, { state, nonce, codeVerifier }) {
      const settings = await configuration();
      const oidc = await loadOpenIdClient();
      let tokens;
      try {
        tokens = await oidc.authorizationCodeGrant(
          settings,
          callbackUrl,
          {
            expectedState: state,
            expectedNonce: nonce,
            pkceCodeVerifier: codeVerifier,
            idTokenExpected: true,
          },
          { redirect_uri: redirectUri },
        );
      } catch (error) {
        if (error instanceof oidc.AuthorizationResponseError) {
          throw new OidcFailure('provider_error', `The provider answered ${error.error}`);
        }
        if (error instanceof TypeError || (error instanceof Error && error.name === 'AbortError')) {
          throw new OidcFailure(
            'unavailable',
            `The provider could not be reached: ${error.message}`,
          );
        }
        throw new OidcFailure(
          'invalid_response',
          `The provider's answer was refused: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const claims = tokens.claims();
      const idToken = tokens.id_token;
      if (!claims || idToken === undefined) {
        throw new OidcFailure('invalid_response', 'The provider sent no ID token');
      }
      // openid-client checks azp only when aud names several parties, and iat only for its type:
      // a token presented by another party, or dated ahead of now, is refused here.
      if (claims.azp !== undefined && claims.azp !== config.clientId) {
        throw new OidcFailure('invalid_response', `The ID token's azp is not this client`);
      }
      // Real time, as openid-client checks exp against.
      if (claims.iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS) {
        throw new OidcFailure('invalid_response', 'The ID token was issued in the future');
      }
      let email: unknown = claims.email;
      let verified: unknown = claims.email_verified;
      // Many providers put the e-mail in UserInfo only (the scope grants it there).
      if (typeof email !== 'string' && settings.serverMetadata().userinfo_endpoint) {
        try {
          const info = await oidc.fetchUserInfo(settings, tokens.access_token, claims.sub);
          email = info.email;
          verified = info.email_verified;
        } catch {
          // No e-mail, then: a new account is refused, a linked one still signs in.
        }
      }
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: providerEmail(email),
        emailVerified: verified === true,
        amr: claims.amr,
        idToken,
      };
    },

    async endSessionUrl(idToken) {
      let settings;
      try {
        settings = await configuration();
      } catch {
        return null;
      }
      if (!settings.serverMetadata().end_session_endpoint) return null;
      const oidc = await loadOpenIdClient();
      return oidc
        .buildEndSessionUrl(settings, {
          id_token_hint: idToken,
          post_logout_redirect_uri: `${publicUrl}/login`,
        })
        .toString();
    },
  };
}
