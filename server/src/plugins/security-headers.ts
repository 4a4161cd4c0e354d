import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

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
  'x-frame-options': 'SAMEORIGIN',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'cache-control': 'no-store',
};

/**
 * Helmet's headers with a Content-Security-Policy that admits exactly the Google Identity
 * Services hosts "Continue with Google" needs, and nothing inline. API answers are never cached.
 */
export const securityHeadersPlugin = fp(
  async (app) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: DIRECTIVES,
      },
      // Google's sign-in popup talks back to its opener.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/api/') && !request.url.startsWith('/api/docs')) {
        reply.header('cache-control', 'no-store');
      }
    });
  },
  { name: 'security-headers' },
);
