import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';

/**
 * A stand-in for Google's identity provider on loopback: its own RSA key, a JWKS endpoint, and
 * a way to mint ID tokens. Tests never reach Google.
 */
export interface LocalGoogleIdp {
  jwksUrl: string;
  issuer: string;
  /**
   * Signs an ID token; claims override the defaults (a verified gmail.com user). As Google does,
   * it carries `claims.nonce`, the nonce the browser passed to Google Identity Services; without
   * one the token has no nonce claim.
   */
  issue(claims?: JWTPayload, options?: { expiresIn?: string; kid?: string }): Promise<string>;
  /** Signs with a key the JWKS does not publish. */
  issueWithUnknownKey(claims?: JWTPayload): Promise<string>;
  close(): Promise<void>;
}

export async function startLocalGoogleIdp(clientId: string): Promise<LocalGoogleIdp> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const stranger = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'local-key-1', alg: 'RS256', use: 'sig' };
  const server: Server = createServer((request, response) => {
    if (request.url === '/jwks') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: [jwk] }));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = 'https://accounts.google.com';

  const sign = (
    key: Parameters<SignJWT['sign']>[0],
    kid: string,
    claims: JWTPayload,
    expiresIn = '1h',
  ) =>
    new SignJWT({
      email: 'someone@gmail.com',
      email_verified: true,
      name: 'Some One',
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(typeof claims.iss === 'string' ? claims.iss : issuer)
      .setAudience(claims.aud ?? clientId)
      .setSubject(typeof claims.sub === 'string' ? claims.sub : '1234567890')
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(key);

  return {
    jwksUrl: `http://127.0.0.1:${port}/jwks`,
    issuer,
    issue: (claims = {}, options = {}) =>
      sign(privateKey, options.kid ?? 'local-key-1', claims, options.expiresIn),
    issueWithUnknownKey: (claims = {}) => sign(stranger.privateKey, 'local-key-1', claims),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
