/**
 * Single sign-on in the e2e run: the local OpenID provider (support/local-oidc-provider.mjs) and
 * the client Tally is registered as there.
 */
export const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 3104);
export const OIDC_ISSUER = `http://127.0.0.1:${OIDC_PORT}`;
export const OIDC_CLIENT_ID = 'tally-e2e';
export const OIDC_CLIENT_SECRET = 'tally-e2e-client-secret';
/** OIDC_NAME: the button reads "Continue with Local IdP". */
export const OIDC_NAME = 'Local IdP';
