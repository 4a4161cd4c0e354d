// A local stand-in for Google's identity provider, started by playwright.config.ts as a web
// server before Tally: its own RS256 key (made at start, never stored), the JWKS that Tally's
// GOOGLE_JWKS_URL points at, and a test-only endpoint that mints ID tokens signed by that key.
// Loopback only; tests never reach Google.
//
//   GET  /jwks      {"keys": [public key]}
//   GET  /health    204
//   POST /id-token  {"claims"?: {..., "nonce"?}, "expiresIn"?: "1h", "unknownKey"?: true} → {"token"}
//
// Env: E2E_IDP_PORT (3101), GOOGLE_CLIENT_ID (the default audience).
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

const port = Number(process.env.E2E_IDP_PORT ?? 3101);
const host = '127.0.0.1';
const issuer = `http://${host}:${port}`;
const clientId = process.env.GOOGLE_CLIENT_ID ?? 'tally-e2e.apps.googleusercontent.com';
const KID = 'e2e-key-1';

const signing = await generateKeyPair('RS256');
const stranger = await generateKeyPair('RS256');
const jwks = {
  keys: [{ ...(await exportJWK(signing.publicKey)), kid: KID, alg: 'RS256', use: 'sig' }],
};

/**
 * An ID token shaped like Google's: a verified gmail.com user unless the claims say otherwise.
 * `claims.nonce` is the nonce the page passed to Google's `initialize`, which Google copies into
 * the token (support/google.ts's stand-in sends it); without one the token has no nonce claim.
 */
async function mint({ claims = {}, expiresIn = '1h', unknownKey = false }) {
  const { iss = issuer, aud = clientId, sub = '100000000000000000001', ...rest } = claims;
  return new SignJWT({
    email: 'someone@gmail.com',
    email_verified: true,
    name: 'Some One',
    ...rest,
  })
    .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
    .setIssuer(iss)
    .setAudience(aud)
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(unknownKey ? stranger.privateKey : signing.privateKey);
}

async function readBody(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : JSON.parse(text);
}

function send(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

const server = createServer(async (request, response) => {
  try {
    const { pathname } = new URL(request.url ?? '/', issuer);
    if (request.method === 'GET' && pathname === '/jwks') return send(response, 200, jwks);
    if (request.method === 'GET' && pathname === '/health') return send(response, 204);
    if (request.method === 'POST' && pathname === '/id-token') {
      return send(response, 200, { token: await mint(await readBody(request)) });
    }
    return send(response, 404, { error: 'Not found' });
  } catch (error) {
    return send(response, 400, { error: String(error) });
  }
});

server.listen(port, host, () => console.log(`local Google IdP on ${issuer} (issuer ${issuer})`));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
