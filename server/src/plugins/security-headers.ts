import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import fp from 'fastify-plugin';
import { MCP_PATH } from '@tally/contract';

/** The Content-Security-Policy: exactly the Google Identity Services hosts, nothing inline. */
const DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", 'https://accounts.google.com/gsi/client'],
  styleSrc: ["'self'", 'https://accounts.google.com/gsi/style'],
  frameSrc: ['https://accounts.google.com/gsi/'],
  connectSrc: ["'self'", 'https://accounts.google.com/gsi/'],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

const toKebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The headers for the rare answers Fastify sends before any hook runs (a URL the router cannot
 * decode): the same policy, written by hand because helmet's hooks never see those requests.
 */
export const EARLY_ERROR_HEADERS: Record<string, string> = {
  'content-security-policy': Object.entries(DIRECTIVES)
    .map(([name, values]) => `${toKebab(name)} ${values.join(' ')}`)
    .join(';'),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'cache-control': 'no-store',
};

/**
 * Helmet's headers with a Content-Security-Policy that admits exactly the Google Identity
 * Services hosts "Continue with Google" needs, and nothing inline. API answers are never cached.
 */
const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: DIRECTIVES,
  },
  // Google's sign-in popup talks back to its opener.
  crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  // One framing policy: CSP's frame-ancestors 'none'. X-Frame-Options: SAMEORIGIN said otherwise
  // (docs/decisions/074-framing-caching-and-source-maps.md).
  xFrameOptions: false,
};

/**
 * Helmet's headers do not depend on the request, so they are computed once here. (@fastify/helmet
 * rebuilt helmet and re-parsed the policy on every request: about 8 % of the server's CPU on a
 * small API answer; docs/performance.md.)
 */
function helmetHeaders(): Record<string, string> {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string | number) => {
      headers.set(name.toLowerCase(), String(value));
    },
    removeHeader: (name: string) => {
      headers.delete(name.toLowerCase());
    },
  };
  helmet(HELMET_OPTIONS)(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    () => undefined,
  );
  return Object.fromEntries(headers);
}

/**
 * Helmet's headers with a Content-Security-Policy that admits exactly the Google Identity
 * Services hosts "Continue with Google" needs, and nothing inline. API answers are never cached.
 */
export const securityHeadersPlugin = fp(
  async (app) => {
    const headers = helmetHeaders();
    const apiHeaders = { ...headers, 'cache-control': 'no-store' };
    // One synchronous hook: on a small API answer every promise a hook adds shows in the profile.
    app.addHook('onRequest', (request, reply, done) => {
      // CalDAV's answers hold a user's todos as much as the API's: its tree, the address that
      // leads there, and a PROPFIND anywhere (a client may ask the base URL).
      const api =
        (request.url.startsWith('/api/') && !request.url.startsWith('/api/docs')) ||
        request.url.startsWith('/dav') ||
        request.url.startsWith('/.well-known/caldav') ||
        // The MCP endpoint's answers hold the same todos.
        request.url.startsWith(MCP_PATH) ||
        request.method === 'PROPFIND';
      reply.headers(api ? apiHeaders : headers);
      done();
    });
  },
  { name: 'security-headers' },
);
