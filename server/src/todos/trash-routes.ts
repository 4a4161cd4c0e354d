import { etagOfVersion, trashApi } from '@tally/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { notFound } from '../shared/errors.js';
import { periodicJob, runInBackground } from '../shared/periodic-job.js';
import { timeZoneOf } from '../shared/time-zone.js';
import { createTrashService } from './trash.js';

const MINUTE_MS = 60_000;
/** The purge runs once an hour across all processes; each process looks every 10 minutes. */
const PURGE_EVERY_MS = 60 * MINUTE_MS;
const PURGE_CHECK_MS = 10 * MINUTE_MS;

export interface TrashRoutesOptions {
  clock: Clock;
  /** Run the purge of old trash in the background (the server does; tests call it). */
  purge: boolean;
}

export const trashRoutes: FastifyPluginAsync<TrashRoutesOptions> = async (app, options) => {
  const trash = createTrashService(app.db, options.clock);

  addEndpoint(app, trashApi.list, async (request) => trash.list(request.user.id));

  addEndpoint(app, trashApi.restore, async (request, reply) => {
    const todo = await trash.restore(request.user.id, request.params.id, timeZoneOf(request));
    if (!todo) throw notFound('Todo in the trash');
    // Back in the list, as if created (docs/decisions/061-live-updates.md).
    app.live.publish(request.user.id, { type: 'todo.created', id: todo.id }, request);
    await app.notifications.todoEvent(request.user.id, 'todo.restored', todo.id);
    return reply.header('etag', etagOfVersion(todo.version)).send(todo);
  });

  addEndpoint(app, trashApi.remove, async (request, reply) => {
    if (!(await trash.remove(request.user.id, request.params.id))) {
      throw notFound('Todo in the trash');
    }
    app.live.publish(request.user.id, { type: 'todos.changed' }, request);
    return reply.code(204).send();
  });

  addEndpoint(app, trashApi.empty, async (request, reply) => {
    await trash.empty(request.user.id);
    app.live.publish(request.user.id, { type: 'todos.changed' }, request);
    return reply.code(204).send();
  });

  if (!options.purge) return;
  const job = periodicJob({
    db: app.db,
    clock: options.clock,
    name: 'trash-purge',
    everyMs: PURGE_EVERY_MS,
    leaseMs: 10 * MINUTE_MS,
    run: async () => {
      const purged = await trash.purge();
      app.log.info({ purged }, 'trash purge: deleted for good what was trashed 30 days ago');
    },
  });
  runInBackground(app, job, PURGE_CHECK_MS, 'trash purge');
};
