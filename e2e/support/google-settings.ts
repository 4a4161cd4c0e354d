/** Continue with Google in the e2e run: the client id and the local identity provider's address. */
import { e2ePort, E2E_PORT } from './ports';
export const GOOGLE_CLIENT_ID = 'tally-e2e.apps.googleusercontent.com';

/** The local identity provider of the environment at `base`: its origin is also the issuer. */
export function googleAddresses(base = E2E_PORT) {
  const IDP_PORT = e2ePort('googleIdp', base);
  return { IDP_PORT, IDP_ORIGIN: `http://127.0.0.1:${IDP_PORT}` };
}
export const { IDP_ORIGIN } = googleAddresses();
