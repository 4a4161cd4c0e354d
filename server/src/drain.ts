import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serviceUnavailable } from './shared/errors.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Graceful shutdown, step one. Closing the listening socket at once (what app.close() does)
 * resets every connection still waiting in the kernel's accept queue or whose request bytes are
 * buffered but not yet parsed, which happens whenever the event loop is busy (SQLite commits
 * synchronously): those clients get ECONNRESET for a request they already sent, and cannot know
 * whether it ran. So on SIGTERM the server keeps listening for a moment: requests already being
 * handled finish, every request that starts after the signal gets a clean 503 {error} with
 * `Connection: close`, and once nothing has been in progress for two checks in a row app.close()
 * closes the socket. Call `track` before the app is ready and `drain` before app.close().
 *
 * "Nothing in progress" also counts connections accepted whose first request has not been read
 * yet: the checks run in the event loop's timer phase, before the poll phase that accepts
 * connections queued while the loop was busy, so without them a burst that arrived during a
 * synchronous commit could be reset by the close instead of getting its 503.
 */
export function gracefulDrain(app: FastifyInstance) {
  const active = new Set<FastifyRequest>();
  const unread = new Set<Socket>();
  let draining = false;
  return {
    track() {
      app.server.on('connection', (socket: Socket) => {
        unread.add(socket);
        socket.once('close', () => unread.delete(socket));
      });
      // Synchronous hooks: they run on every request, and promises there cost measurable time.
      app.addHook('onRequest', (request, reply, done) => {
        unread.delete(request.raw.socket);
        if (draining) {
          reply.header('connection', 'close');
          done(serviceUnavailable('The server is restarting - try again in a moment'));
          return;
        }
        // A stream of server-sent events never finishes by itself: the live routes end theirs
        // when the app closes (server/src/live/routes.ts), so the drain does not wait for them.
        if (request.routeOptions.config.stream !== true) active.add(request);
        done();
      });
      app.addHook('onResponse', (request, _reply, done) => {
        active.delete(request);
        done();
      });
      app.addHook('onRequestAbort', (request, done) => {
        active.delete(request);
        done();
      });
    },
    /**
     * Resolves once no admitted request and no unread connection has been seen for two checks
     * (or at the limit: a client that connects and never sends holds it up to `limitMs`).
     */
    async drain(limitMs = 8_000) {
      draining = true;
      const deadline = Date.now() + limitMs;
      let quiet = 0;
      while (quiet < 2 && Date.now() < deadline) {
        await sleep(50);
        quiet = active.size === 0 && unread.size === 0 ? quiet + 1 : 0;
      }
    },
  };
}
