import type { FastifyPluginAsync, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { AppError, notFound } from '../shared/errors.js';
import { periodicJob, runInBackground } from '../shared/periodic-job.js';
import { davAuthentication, davUserOf } from './auth.js';
import { DAV_BODY_LIMIT_BYTES, DAV_REPORT_BODY_LIMIT_BYTES } from './limits.js';
import { davError } from './multistatus.js';
import { collectionOf, type DavParams, propfindHandlers } from './propfind.js';
import { reportHandlers } from './report.js';
import { createCaldavService } from './service.js';
import { writeHandlers } from './writes.js';
import { DavPrecondition } from './xml.js';

/**
 * CalDAV (RFC 4791, 6578, 6764, 5397) for calendar and task apps: docs/decisions/085-caldav.md
 * has the tree, the storage and the authentication; docs/product.md the mapping. Outside /api
 * (its answers are XML and iCalendar, not the contract's JSON), so the session authentication
 * hook passes these routes (`public`) and their own hook checks HTTP Basic (caldav/auth.ts).
 */

const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'REPORT', 'MKCALENDAR', 'MKCOL'] as const;
/** The methods of the /dav tree besides OPTIONS (HEAD is GET's, without the body). */
const METHODS = ['GET', 'PUT', 'DELETE', ...DAV_METHODS] as const;
type Method = (typeof METHODS)[number];
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR';
const MINUTE = 60_000;
/** The change log is pruned once a day across all processes; each process looks every hour. */
const PRUNE_EVERY_MS = 24 * 60 * MINUTE;
const PRUNE_CHECK_MS = 60 * MINUTE;
/** CalDAV's calls are XML and iCalendar, described by their RFCs, not OpenAPI (decision 085). */
const NOT_IN_OPENAPI = { hide: true };

/** The tree (docs/decisions/085-caldav.md): each path with its parameters. */
const ROOT = '/dav';
const PRINCIPAL = '/dav/principals/:owner';
const HOME = '/dav/calendars/:owner';
const CALENDAR = '/dav/calendars/:owner/:calendar';
const OBJECT = '/dav/calendars/:owner/:calendar/:name';
/** Any other path below /dav: signed in first, as every path is, then not found. */
const ELSEWHERE = '/dav/*';

type Handler = (request: FastifyRequest<{ Params: DavParams }>, reply: FastifyReply) => unknown;

/** The root, the principal and the calendar home answer PROPFIND and REPORT only. */
const notAllowedHere: Handler = (request) => {
  throw new AppError(405, `${request.method} is not allowed here`, {
    allow: 'OPTIONS, PROPFIND, REPORT',
  });
};

export const caldavRoutes: FastifyPluginAsync<{
  clock: Clock;
  loginAttemptsPerAccount: number;
  /** Prune the change log in the background (the server does; tests call it). */
  prune: boolean;
}> = async (app, { clock, loginAttemptsPerAccount, prune }) => {
  const caldav = createCaldavService(app.db, clock);
  if (prune) {
    const job = periodicJob({
      db: app.db,
      clock,
      name: 'caldav-changes-prune',
      everyMs: PRUNE_EVERY_MS,
      leaseMs: 10 * MINUTE,
      run: async () => {
        const pruned = await caldav.pruneChanges();
        app.log.info({ pruned }, 'CalDAV change log: deleted changes older than the kept history');
      },
    });
    runInBackground(app, job, PRUNE_CHECK_MS, 'CalDAV change log pruning');
  }
  for (const method of DAV_METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
  // Every body here is text (XML or iCalendar), whatever type a client names, or none.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  const authenticate = davAuthentication(app, caldav, loginAttemptsPerAccount);
  const propfind = propfindHandlers(caldav);
  const report = reportHandlers(caldav);
  const writes = writeHandlers(app, caldav);

  /** A DAV precondition a request fails is answered as an <error> naming it. */
  const answering =
    (handler: Handler): RouteHandlerMethod =>
    async (request, reply) => {
      try {
        return await handler(request as FastifyRequest<{ Params: DavParams }>, reply);
      } catch (error) {
        if (error instanceof DavPrecondition) {
          return davError(reply, error.statusCode, error.condition);
        }
        throw error;
      }
    };

  /** A path's handler for each method; every other method is answered by `otherwise`. */
  function path(url: string, handlers: Partial<Record<Method, Handler>>, otherwise: Handler) {
    for (const method of METHODS) {
      app.route({
        method,
        url,
        // A multiget of a calendar's every object is larger than any object a PUT may hold.
        bodyLimit: method === 'REPORT' ? DAV_REPORT_BODY_LIMIT_BYTES : DAV_BODY_LIMIT_BYTES,
        config: { public: true },
        schema: NOT_IN_OPENAPI,
        preHandler: authenticate,
        handler: answering(handlers[method] ?? otherwise),
      });
    }
  }

  /** GET (and HEAD) of a todo: its calendar object, or 304 when the client has it already. */
  const getObject: Handler = async (request, reply) => {
    const collection = await collectionOf(caldav, request);
    const resource = await caldav.resource(
      davUserOf(request).id,
      collection.groupId,
      request.params.name ?? '',
    );
    if (!resource) throw notFound('Todo');
    if (request.headers['if-none-match'] === resource.etag) return reply.code(304).send();
    return reply
      .header('etag', resource.etag)
      .header('content-type', 'text/calendar; charset=utf-8')
      .send(resource.data);
  };

  /** A method a calendar or a todo does not take, once the calendar is known to exist. */
  const notAllowedOn =
    (what: string): Handler =>
    async (request) => {
      await collectionOf(caldav, request);
      throw new AppError(405, `${request.method} is not allowed on ${what}`, { allow: ALLOW });
    };

  path(
    ROOT,
    {
      GET: (_request, reply) =>
        reply
          .type('text/plain; charset=utf-8')
          .send('Tally CalDAV server: add this address to a CalDAV app.'),
      PROPFIND: propfind.root,
      REPORT: report.principals,
    },
    notAllowedHere,
  );
  path(PRINCIPAL, { PROPFIND: propfind.principal, REPORT: report.principals }, notAllowedHere);
  path(HOME, { PROPFIND: propfind.home, REPORT: report.principals }, notAllowedHere);
  path(
    CALENDAR,
    {
      PROPFIND: propfind.calendar,
      REPORT: report.calendar,
      PROPPATCH: writes.patchCalendar,
      DELETE: writes.removeCalendar,
      MKCALENDAR: writes.makeCalendar,
      MKCOL: writes.makeCalendar,
    },
    notAllowedOn('a calendar'),
  );
  path(
    OBJECT,
    {
      PROPFIND: propfind.object,
      GET: getObject,
      PUT: writes.put,
      DELETE: writes.remove,
      MKCALENDAR: writes.notAHome,
      MKCOL: writes.notAHome,
    },
    notAllowedOn('a todo'),
  );
  path(ELSEWHERE, {}, () => {
    throw notFound();
  });
  // What the server speaks, to anyone and on any path: a client asks before signing in.
  for (const url of [ROOT, ELSEWHERE]) {
    app.route({
      method: 'OPTIONS',
      url,
      config: { public: true },
      schema: NOT_IN_OPENAPI,
      handler: (_request, reply) =>
        reply
          .code(200)
          .header('dav', '1, 3, calendar-access, extended-mkcol')
          .header('allow', ALLOW)
          .send(),
    });
  }

  // RFC 6764: a client given only the server's address finds the CalDAV tree here.
  app.route({
    method: ['GET', 'PROPFIND', 'OPTIONS'],
    url: '/.well-known/caldav',
    config: { public: true },
    schema: NOT_IN_OPENAPI,
    handler: (_request, reply) => reply.redirect('/dav/', 301),
  });
  // A client given only the base URL may ask it directly (DAVx⁵, python-caldav) before or
  // instead of the well-known address: it answers as /dav/ does.
  app.route({
    method: 'PROPFIND',
    url: '/',
    config: { public: true },
    schema: NOT_IN_OPENAPI,
    preHandler: authenticate,
    handler: answering(propfind.root),
  });
};
