import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';

/**
 * An access token as the server signs one at sign-in (server/src/plugins/authentication.ts:
 * HS256, issuer "tally", audience "tally-web", the account's id and name and its session), so a
 * benchmark can call the API as a seeded user without a login per run. 15 minutes, as the
 * server's: sign afresh for long runs.
 */
export function signAccessToken(secret, { id, username, sessionId }) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ roles: ['user'], uid: id, sid: sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(username)
    .setIssuer('tally')
    .setAudience('tally-web')
    .setIssuedAt(now)
    .setExpirationTime(now + 15 * 60)
    .sign(createSecretKey(Buffer.from(secret)));
}
