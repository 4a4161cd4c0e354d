import { remindersApi } from '@tally/contract';
import type { FastifyPluginAsync } from 'fastify';
import { addEndpoint } from '../shared/endpoint.js';
import type { ReminderService } from './service.js';

export interface ReminderRoutesOptions {
  service: ReminderService;
  /** The VAPID public key browsers subscribe with. */
  publicKey: string;
}

/** Turning reminders on and off for a browser, and what went out lately for the open app. */
export const reminderRoutes: FastifyPluginAsync<ReminderRoutesOptions> = async (
  app,
  { service, publicKey },
) => {
  addEndpoint(app, remindersApi.pushKey, async () => ({ publicKey }));

  addEndpoint(app, remindersApi.subscribe, async (request, reply) => {
    await service.subscribe(request.user.id, request.body);
    return reply.code(204).send();
  });

  addEndpoint(app, remindersApi.unsubscribe, async (request, reply) => {
    await service.unsubscribe(request.user.id, request.body.endpoint);
    return reply.code(204).send();
  });

  addEndpoint(app, remindersApi.recent, async (request) => {
    const { after } = request.query;
    return service.recent(request.user.id, after === undefined ? null : Date.parse(after));
  });
};
