/** Continue with Google in the e2e run: the client id and the local identity provider's address. */
export const GOOGLE_CLIENT_ID = 'tally-e2e.apps.googleusercontent.com';
export const IDP_PORT = Number(process.env.E2E_IDP_PORT ?? 3101);
/** The local identity provider: its origin is also the issuer of its ID tokens. */
export const IDP_ORIGIN = `http://127.0.0.1:${IDP_PORT}`;
