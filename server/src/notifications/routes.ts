import { notificationsApi } from '@tally/contract';
import fp from 'fastify-plugin';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { notFound } from '../shared/errors.js';
import type { Mailer } from '../shared/mailer.js';
import { repeatWhileOpen } from '../shared/periodic-job.js';
import {
  createNotificationService,
  type NotificationService,
  type NotificationTickResult,
} from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Queues reminders and events for the user's channels. */
    notifications: Pick<
      NotificationService,
      'reminderFired' | 'todoData' | 'todoEvent' | 'groupEvent'
    >;
    /** One round of channel deliveries now (the poller runs these; tests call it directly). */
    sendDueNotifications(): Promise<NotificationTickResult>;
  }
}

/** Deliveries are looked for this often. */
const NOTIFICATION_POLL_MS = 5_000;

export interface NotificationRoutesOptions {
  clock: Clock;
  allowPrivate: boolean;
  pushoverApiUrl: string;
  mailer: Mailer | null;
  publicUrl: string;
  /** 0: never by itself (tests call sendDueNotifications). */
  pollMs?: number;
}

/**
 * Notification channels and their delivery queue (docs/decisions/143-notification-channels.md).
 * Every process polls; a delivery's lease makes one of them send it, and what was queued before
 * a restart goes out after it.
 */
export const notificationRoutes = fp<NotificationRoutesOptions>(
  async (app, { pollMs = NOTIFICATION_POLL_MS, ...options }) => {
    const service = createNotificationService({
      db: app.db,
      ...options,
      onError: (error) => app.log.warn({ err: error }, 'channel turned off: e-mail failed'),
    });
    // A change is committed before its event is queued: a failure to queue is logged, and the
    // change's answer stands.
    const logged =
      <A extends unknown[]>(queue: (...args: A) => Promise<void>) =>
      (...args: A) =>
        queue(...args).catch((error: unknown) =>
          app.log.error({ err: error }, 'webhook event not queued'),
        );
    app.decorate('notifications', {
      reminderFired: service.reminderFired,
      todoData: service.todoData,
      todoEvent: logged(service.todoEvent),
      groupEvent: logged(service.groupEvent),
    });
    app.decorate('sendDueNotifications', () => service.tick());
    if (pollMs > 0) {
      repeatWhileOpen(app, pollMs, 'notification round', async () => {
        const result = await service.tick();
        if (result.sent + result.failed + result.retried > 0) {
          app.log.info({ notifications: result }, 'notifications delivered');
        }
      });
    }

    addEndpoint(app, notificationsApi.list, async (request) => service.list(request.user.id));

    addEndpoint(app, notificationsApi.create, async (request, reply) => {
      const created = await service.create(request.user.id, request.body);
      return reply.code(201).send(created);
    });

    addEndpoint(app, notificationsApi.update, async (request) => {
      const channel = await service.update(request.user.id, request.params.id, request.body);
      if (!channel) throw notFound('Channel');
      return channel;
    });

    addEndpoint(app, notificationsApi.remove, async (request, reply) => {
      if (!(await service.remove(request.user.id, request.params.id))) throw notFound('Channel');
      return reply.code(204).send();
    });

    addEndpoint(app, notificationsApi.test, async (request) => {
      const result = await service.test(request.user.id, request.params.id);
      if (!result) throw notFound('Channel');
      return result;
    });

    addEndpoint(app, notificationsApi.deliveries, async (request) => {
      const log = await service.deliveries(request.user.id, request.params.id);
      if (!log) throw notFound('Channel');
      return log;
    });

    addEndpoint(app, notificationsApi.redeliver, async (request) => {
      const delivery = await service.redeliver(request.user.id, request.params.id);
      if (!delivery) throw notFound('Delivery');
      return delivery;
    });
  },
  { name: 'notifications', dependencies: ['database'] },
);
