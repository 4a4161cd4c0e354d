import { createHash } from 'node:crypto';
import {
  AUTH_PATH_PREFIX,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_TTL_MS,
  routes,
} from '@tally/contract';
import type {
  FastifyReply,
  FastifyRequest,
  onRequestAbortAsyncHookHandler,
  onResponseAsyncHookHandler,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../shared/clock.js';
import { AppError, badRequest, conflict } from '../shared/errors.js';
import { isUniqueViolation } from '../shared/sql-errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed, until its answer is stored. */
    idempotencyClaim: { userId: number; key: string } | null;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Printable ASCII, as sent by clients (a UUID in Tally's own). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/**
 * A claim still unanswered after this long belongs to a request that died with its process
 * (a crash between claim and answer); a retry may claim the key again.
 */
const ABANDONED_AFTER_MS = 60_000;
/** How often one process deletes keys older than 24 hours (at most; on a claim). */
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Writes whose body or answer holds a credential: a password (or a Google ID token), a new API
 * token, the calendar feed's secret, a push subscription's keys. The key store would keep the
 * answer in clear (a revoked API token handed out again on a retry) or a hash of the body (a
 * password's unsalted SHA-256), so these calls take no key (docs/decisions/076-no-idempotency-keys-for-secrets.md): a retry runs
 * again, as it would without the header.
 */
const SECRET_ROUTES = [
  routes.tokens.create,
  routes.calendar.regenerate,
  routes.account.changePassword,
  routes.account.changeEmail,
  routes.account.remove,
  routes.account.linkGoogle,
  routes.account.reauthenticate,
  routes.reminders.subscribe,
  // They answer a provider URL whose state lives in a cookie set with it: a stored replay could
  // not set the cookie again (docs/decisions/080-openid-connect.md).
  routes.oidc.link,
  routes.oidc.reauthenticate,
];
const isSecretRoute = (url: string, methods: string[]) =>
  SECRET_ROUTES.some((route) => route.path === url && methods.includes(route.method));

/** Whether a route is a write this plugin takes care of (auth calls have no user). */
const isGuardedPath = (url: string) => url.startsWith('/api/') && !url.startsWith(AUTH_PATH_PREFIX);

/** A route's hooks of one kind with `hook` first: it runs before the route's own. */
function first<T>(hook: T, existing: T | T[] | undefined): T[] {
  if (existing === undefined) return [hook];
  return [hook, ...(Array.isArray(existing) ? existing : [existing])];
}

function requestHash(request: FastifyRequest): string {
  // A multipart body (an import) is read by its route later: its key covers method and path.
  const multipart = /^multipart\//i.test(request.headers['content-type'] ?? '');
  const body = multipart ? null : (request.body ?? null);
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(body)}`)
    .digest('base64url');
}

/**
 * Idempotency-Key for every authenticated write (docs/decisions/060-idempotency-keys.md): the
 * first request with a key claims it by inserting its row (the primary key makes that atomic
 * across processes and on both databases), runs, and stores its status and body; a retry with
 * the same key and request gets that answer again (its ETag too), with `idempotent-replayed: true`,
 * for 24 hours.
 * The same key with another request is refused (422); while the first is still running, 409 with
 * Retry-After. A 5xx or 429 answer is not kept, so a retry runs again. Calls that carry a
 * credential (SECRET_ROUTES) take no key: nothing of them is stored.
 */
export const idempotencyPlugin = fp<{ clock: Clock }>(
  async (app, { clock }) => {
    app.decorateRequest('idempotencyClaim', null);
    let lastSweep = 0;

    const sweep = async (now: number) => {
      if (now - lastSweep < SWEEP_EVERY_MS) return;
      lastSweep = now;
      await app.db
        .deleteFrom('idempotency_keys')
        .where('created_at', '<=', now - IDEMPOTENCY_KEY_TTL_MS)
        .execute();
    };

    // preHandler: after authentication (request.user) and the body's validation.
    const claim: preHandlerAsyncHookHandler = async (request, reply: FastifyReply) => {
      const header = request.headers[IDEMPOTENCY_KEY_HEADER];
      // A route of several methods (none today) may have been given these hooks for its reads too.
      if (header === undefined || !WRITE_METHODS.has(request.method)) return;
      const key = Array.isArray(header) ? undefined : header;
      if (key === undefined || !KEY_PATTERN.test(key)) {
        throw badRequest('Idempotency-Key must be 1 to 255 printable characters');
      }
      // Public routes have no user; the only public writes are the auth calls, left out above.
      const user = request.user as FastifyRequest['user'] | null;
      if (!user) return;
      const userId = user.id;
      const hash = requestHash(request);
      const now = clock();
      await sweep(now);

      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          await app.db
            .insertInto('idempotency_keys')
            .values({
              user_id: userId,
              key,
              method: request.method,
              path: request.url,
              request_hash: hash,
              status: null,
              response_body: null,
              etag: null,
              created_at: now,
            })
            .execute();
          request.idempotencyClaim = { userId, key };
          return;
        } catch (error) {
          // SQLite names a primary-key clash apart from other unique ones.
          const code = (error as { code?: unknown }).code;
          if (!isUniqueViolation(error) && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw error;
        }
        const stored = await app.db
          .selectFrom('idempotency_keys')
          .select(['request_hash', 'status', 'response_body', 'etag', 'created_at'])
          .where('user_id', '=', userId)
          .where('key', '=', key)
          .executeTakeFirst();
        if (!stored) continue; // Swept or released meanwhile: claim again.
        const age = now - stored.created_at;
        const expired = age >= IDEMPOTENCY_KEY_TTL_MS;
        const abandoned = stored.status === null && age >= ABANDONED_AFTER_MS;
        if (expired || abandoned) {
          await app.db
            .deleteFrom('idempotency_keys')
            .where('user_id', '=', userId)
            .where('key', '=', key)
            .where('created_at', '=', stored.created_at)
            .execute();
          continue;
        }
        if (stored.status === null) {
          throw new AppError(409, 'A request with this Idempotency-Key is still running', {
            'retry-after': '1',
          });
        }
        if (stored.request_hash !== hash) {
          throw new AppError(422, 'This Idempotency-Key was already used for another request');
        }
        reply.code(stored.status).header('idempotent-replayed', 'true');
        // The version the first answer named: the retry's next write sends it as If-Match.
        if (stored.etag !== null) reply.header('etag', stored.etag);
        if (stored.response_body === null) return reply.send();
        return reply.type('application/json; charset=utf-8').send(stored.response_body);
      }
      throw conflict('A request with this Idempotency-Key is still running');
    };

    const store: onSendAsyncHookHandler<unknown> = async (request, reply, payload) => {
      const claim = request.idempotencyClaim;
      if (!claim) return payload;
      request.idempotencyClaim = null;
      if (reply.statusCode >= 500 || reply.statusCode === 429) {
        // Not an answer to the request but to the moment: a retry should run it again.
        await app.db
          .deleteFrom('idempotency_keys')
          .where('user_id', '=', claim.userId)
          .where('key', '=', claim.key)
          .execute();
        return payload;
      }
      let body: string | null = null;
      if (typeof payload === 'string') body = payload;
      else if (Buffer.isBuffer(payload)) body = payload.toString('utf8');
      const etag = reply.getHeader('etag');
      await app.db
        .updateTable('idempotency_keys')
        .where('user_id', '=', claim.userId)
        .where('key', '=', claim.key)
        .set({
          status: reply.statusCode,
          response_body: body === '' ? null : body,
          etag: typeof etag === 'string' ? etag : null,
        })
        .execute();
      return payload;
    };

    // A request that ended without an answer (the client went away) gives its key back.
    const release: onResponseAsyncHookHandler & onRequestAbortAsyncHookHandler = async (
      request: FastifyRequest,
    ) => {
      const claim = request.idempotencyClaim;
      if (!claim) return;
      request.idempotencyClaim = null;
      await app.db
        .deleteFrom('idempotency_keys')
        .where('user_id', '=', claim.userId)
        .where('key', '=', claim.key)
        .where('status', 'is', null)
        .execute();
    };

    // Only the write routes carry these hooks: a read pays nothing for them (four promises per
    // request otherwise: docs/performance.md, "where Tally's own layers cost, and what changed"). A
    // route of several methods gets them when one is a write.
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!methods.some((m) => WRITE_METHODS.has(m)) || !isGuardedPath(route.url)) return;
      if (isSecretRoute(route.url, methods)) return;
      route.preHandler = first(claim, route.preHandler);
      route.onSend = first(store, route.onSend);
      route.onResponse = first(release, route.onResponse);
      route.onRequestAbort = first(release, route.onRequestAbort);
    });
  },
  { name: 'idempotency', dependencies: ['database', 'authentication'] },
);
