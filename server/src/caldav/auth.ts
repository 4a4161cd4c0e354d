import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createLoginLimits } from '../auth/login-limits.js';
import { AppError, badRequest, notFound } from '../shared/errors.js';
import { CALDAV_REQUESTS_PER_WINDOW, CALDAV_WINDOW_MS } from './limits.js';
import type { createCaldavService, DavUser } from './service.js';
import { loadIcal } from './vtodo.js';
import { loadXmldom } from './xml.js';

/**
 * Who a CalDAV request is: HTTP Basic with the account's e-mail (or username) and an app password
 * (an API token), checked by a preHandler hook of every /dav route before its handler runs, so a
 * handler only ever sees a signed-in user (davUserOf) and the paths of their own tree.
 */

declare module 'fastify' {
  interface FastifyRequest {
    davUser: DavUser | null;
  }
}

const WRITE_METHODS = new Set(['PUT', 'DELETE', 'PROPPATCH', 'MKCALENDAR', 'MKCOL']);
const CHALLENGE = { 'www-authenticate': 'Basic realm="Tally CalDAV", charset="UTF-8"' };

/** The signed-in user of a request that passed davAuthentication's hook. */
export function davUserOf(request: FastifyRequest): DavUser {
  if (!request.davUser) throw new AppError(401, 'Sign in with your e-mail and an app password');
  return request.davUser;
}

/**
 * The hook: signs the request in (a 401 with the Basic challenge otherwise), counts it against
 * the app password's budget, refuses a write with a read-only token, and answers 404 for a path
 * of another user's tree (`:owner`) or a name holding NUL (no name Tally keeps can: PostgreSQL
 * refuses it).
 */
export function davAuthentication(
  app: FastifyInstance,
  caldav: ReturnType<typeof createCaldavService>,
  loginAttemptsPerAccount: number,
) {
  const limits = createLoginLimits(app.counters, loginAttemptsPerAccount);
  app.decorateRequest('davUser', null);

  async function signIn(request: FastifyRequest): Promise<DavUser> {
    const header = request.headers.authorization ?? '';
    const [scheme, encoded] = header.split(' ');
    if (scheme?.toLowerCase() !== 'basic' || !encoded) {
      throw new AppError(
        401,
        'Sign in with your e-mail and an app password (an API token)',
        CHALLENGE,
      );
    }
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const username = colon < 0 ? decoded : decoded.slice(0, colon);
    const user = colon < 0 ? null : await caldav.authenticate(username, decoded.slice(colon + 1));
    if (!user) {
      // Counted like a failed login (auth/login-limits.ts): past the limit, a 429. The address
      // first, so a flood of made-up names from one address writes no counter for each name.
      await limits.admitAddress(request.ip);
      await limits.admit(username, request.ip, false);
      throw new AppError(
        401,
        'The e-mail or app password is wrong (use an API token, never the account password)',
        CHALLENGE,
      );
    }
    // A budget of its own, sized for a first sync (caldav/limits.ts), not the API's per minute:
    // a sync is many small requests in a row (docs/decisions/124-caldav-request-budget.md).
    const used = await app.counters.hit(`caldav-token:${user.tokenId}`, CALDAV_WINDOW_MS);
    if (used.count > CALDAV_REQUESTS_PER_WINDOW) {
      const seconds = Math.max(1, Math.ceil(used.ttlMs / 1000));
      throw new AppError(
        429,
        `Too many requests with this app password - try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
        { 'retry-after': String(seconds) },
      );
    }
    if (WRITE_METHODS.has(request.method) && !user.canWrite) {
      throw new AppError(403, 'This app password is a read-only API token: it cannot make changes');
    }
    return user;
  }

  return async (request: FastifyRequest) => {
    const user = await signIn(request);
    request.davUser = user;
    // Loaded at the first signed-in CalDAV request, not at start (decision 097): every handler
    // may then read XML and iCalendar synchronously.
    await Promise.all([loadXmldom(), loadIcal()]);
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    if (Object.values(params).some((value) => value?.includes('\u0000'))) {
      throw badRequest('The request URL must not contain NUL characters');
    }
    if (params.owner !== undefined && params.owner !== String(user.id)) throw notFound();
  };
}
