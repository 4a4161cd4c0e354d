import { loadSessionFromStorage } from '#web/lib/session-store';

const base64Url = (value: string) =>
  btoa(value).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

let serial = 0;

/** An access token shaped like the server's (the signature is never checked in the browser). */
export function makeToken(sub = 'alice', expiresInSeconds = 900, now = Date.now()): string {
  const header = base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64Url(
    JSON.stringify({
      sub,
      roles: ['user'],
      exp: Math.floor(now / 1000) + expiresInSeconds,
      jti: String(++serial),
    }),
  );
  return `${header}.${payload}.signature`;
}

/** Puts a token in storage as a previous visit would have, and loads it as the app does at start. */
export function storeSession(sub = 'alice', expiresInSeconds = 900): string {
  const token = makeToken(sub, expiresInSeconds);
  window.localStorage.setItem('token', token);
  window.localStorage.setItem('username', sub);
  loadSessionFromStorage({ atStart: true });
  return token;
}
