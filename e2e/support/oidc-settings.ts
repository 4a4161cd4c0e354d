/**
 * Single sign-on in the e2e run: the local OpenID provider (support/local-oidc-provider.mjs) and
 * the client Tally is registered as there.
 */
import { e2ePort, E2E_PORT } from './ports';
export const OIDC_CLIENT_ID = 'tally-e2e';
export const OIDC_CLIENT_SECRET = 'tally-e2e-client-secret';
/** OIDC_NAME: the button reads "Continue with Local IdP". */
export const OIDC_NAME = 'Local IdP';

export function oidcAddresses(base = E2E_PORT) {
  const OIDC_PORT = e2ePort('oidc', base);
  return { OIDC_PORT, OIDC_ISSUER: `http://127.0.0.1:${OIDC_PORT}` };
}
export const { OIDC_ISSUER } = oidcAddresses();
