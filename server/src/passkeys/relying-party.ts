/**
 * Who Tally is to WebAuthn: the relying-party id (a domain the passkeys are bound to) and the
 * origins whose answers it accepts, both from PUBLIC_URL (docs/decisions/082-passkeys.md).
 */
export interface RelyingParty {
  /** The domain passkeys are made for: PUBLIC_URL's host name ("localhost" on loopback). */
  id: string;
  /** What the browser shows beside the account name. */
  name: string;
  /** Whether an answer from this page origin is Tally's. */
  acceptsOrigin(origin: string): boolean;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Any port of http(s)://localhost: the Vite dev server and the built app on loopback. */
const LOCALHOST_ORIGIN = /^https?:\/\/localhost(:\d{1,5})?$/;

/**
 * PUBLIC_URL's origin is the one accepted. On loopback (development, and the e2e server on
 * 127.0.0.1) the id is "localhost", since WebAuthn takes no IP address as an id, and every
 * localhost port is accepted: the Vite dev server serves the pages from another port than the
 * API's, and no other site can be on this machine's localhost.
 */
export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  if (LOOPBACK.has(url.hostname)) {
    return {
      id: 'localhost',
      name: 'Tally',
      acceptsOrigin: (origin) => origin === url.origin || LOCALHOST_ORIGIN.test(origin),
    };
  }
  return { id: url.hostname, name: 'Tally', acceptsOrigin: (origin) => origin === url.origin };
}
