// The tests' OpenID Connect provider (oidc-provider on loopback), started by playwright.config.ts
// as a web server before Tally. It runs server/src/test/local-oidc-provider.ts itself (Node's type
// stripping), the very provider the API tests use: discovery, PKCE, tokens, UserInfo, JWKS and
// RP-initiated logout are oidc-provider's own; its login page is a form naming the person.
//
// Env: E2E_OIDC_PORT (3104), E2E_PUBLIC_URL (Tally's PUBLIC_URL), OIDC_CLIENT_ID,
// OIDC_CLIENT_SECRET.
import { startLocalOidcProvider } from '../../server/src/test/local-oidc-provider.ts';

const provider = await startLocalOidcProvider({
  publicUrl: process.env.E2E_PUBLIC_URL ?? 'http://127.0.0.1:3100',
  port: Number(process.env.E2E_OIDC_PORT ?? 3104),
  clientId: process.env.OIDC_CLIENT_ID ?? 'tally-e2e',
  clientSecret: process.env.OIDC_CLIENT_SECRET ?? 'tally-e2e-client-secret',
});
console.log(`local OpenID provider at ${provider.issuer}`);
