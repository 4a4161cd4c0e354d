import { PassThrough } from 'node:stream';
import { LIVE_HEARTBEAT_SECONDS, LIVE_MAX_STREAMS_PER_USER, liveApi } from '@tally/contract';
import type { FastifyPluginAsync } from 'fastify';
import { addEndpoint } from '../shared/endpoint.js';
import { AppError, serviceUnavailable } from '../shared/errors.js';

export interface LiveRoutesOptions {
  /** Between comment lines and token checks; LIVE_HEARTBEAT_SECONDS unless a test shortens it. */
  heartbeatMs?: number;
}

/**
 * GET /api/events (docs/decisions/061-live-updates.md): server-sent events of the caller's
 * changes, from the live bus (server/src/plugins/live-bus.ts). Not compressed (no compression is
 * registered here, and a compressor would hold events back), checked at each heartbeat and when
 * the bus says the user's access changed, ended when the token or session is no longer good
 * (docs/decisions/075-live-streams-end-with-their-access.md) and when the app closes.
 */
export const liveRoutes: FastifyPluginAsync<LiveRoutesOptions> = async (
  app,
  { heartbeatMs = LIVE_HEARTBEAT_SECONDS * 1000 },
) => {
  /** How to end each open stream. */
  const open = new Set<() => void>();
  const perUser = new Map<number, number>();
  // Before the server closes: it waits for open connections, and a stream would hold it forever.
  app.addHook('preClose', (done) => {
    for (const end of [...open]) end();
    done();
  });

  addEndpoint(app, liveApi.events, async (request, reply) => {
    const userId = request.user.id;
    const streams = perUser.get(userId) ?? 0;
    if (streams >= LIVE_MAX_STREAMS_PER_USER) {
      throw new AppError(
        429,
        `Too many live connections: at most ${LIVE_MAX_STREAMS_PER_USER} per user - close some tabs or devices`,
      );
    }
    perUser.set(userId, streams + 1);

    const stream = new PassThrough();
    let ended = false;
    let unsubscribe: () => void = () => undefined;
    const write = (text: string) => {
      if (!ended) stream.write(text);
    };
    const check = () => void app.stillAuthenticated(request).then((valid) => valid || end());
    const heartbeat = setInterval(() => {
      write(': heartbeat\n\n');
      check();
    }, heartbeatMs);
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
      const left = (perUser.get(userId) ?? 1) - 1;
      if (left > 0) perUser.set(userId, left);
      else perUser.delete(userId);
      stream.end();
    };
    open.add(end);
    // The client went away, or the answer ended (a HEAD request's at once): let go of it all.
    reply.raw.once('close', end);
    reply.raw.once('finish', end);

    try {
      unsubscribe = await app.live.subscribe(userId, {
        event: (event) => write(`data: ${JSON.stringify(event)}\n\n`),
        lost: end,
        // A session or token of the user's may have ended (logout, revocation…): check now.
        accessChanged: check,
      });
    } catch (error) {
      end();
      request.log.warn({ err: error }, 'live updates: cannot listen for changes');
      throw serviceUnavailable('Live updates are unavailable right now - try again in a moment');
    }
    // The client left while the bus was getting ready.
    if (ended) unsubscribe();
    write('event: ready\ndata: {}\n\n');
    return (
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store, no-transform')
        // Tells nginx-like proxies not to buffer the stream.
        .header('x-accel-buffering', 'no')
        // The contract types the answer as the text it carries; Fastify pipes the stream.
        .send(stream as unknown as string)
    );
  });
};
