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
 */
export function gracefulDrain(app: FastifyInstance) {
  const active = new Set<FastifyRequest>();
  let draining = false;
  return {
    track() {
      // Synchronous hooks: they run on every request, and promises there cost measurable time.
      app.addHook('onRequest', (request, reply, done) => {
        if (draining) {
          reply.header('connection', 'close');
          done(serviceUnavailable('The server is restarting - try again in a moment'));
          return;
        }
        active.add(request);
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
    /** Resolves once no admitted request has been in progress for two checks (or at the limit). */
    async drain(limitMs = 8_000) {
      draining = true;
      const deadline = Date.now() + limitMs;
      let quiet = 0;
      while (quiet < 2 && Date.now() < deadline) {
        await sleep(50);
        quiet = active.size === 0 ? quiet + 1 : 0;
      }
    },
  };
}
