import { remindersApi } from '@tally/contract';
import fp from 'fastify-plugin';
import type { VapidKeys } from '../secrets.js';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { repeatWhileOpen } from '../shared/periodic-job.js';
import { createPushSender } from './push-sender.js';
import { createReminderService, type TickResult } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** One round of reminder deliveries now (the poller runs these; tests call it directly). */
    sendDueReminders(): Promise<TickResult>;
  }
}

/** Reminders are looked for this often: a reminder goes out within 15 s of its minute. */
const REMINDER_POLL_MS = 15_000;

export interface ReminderRoutesOptions {
  clock: Clock;
  /** The VAPID key pair: browsers subscribe with its public key, pushes are signed with it. */
  vapid: VapidKeys;
  /** VAPID_SUBJECT: whom a push service can contact. */
  subject: string;
  /** How often this process looks for reminders to send (ms); 0: never by itself (tests). */
  pollMs?: number;
  /** Accept http push endpoints on loopback: only the tests' local push service. */
  allowLoopback: boolean;
}

/**
 * Turning reminders on and off for a browser, what went out lately for the open app, and the
 * poller that sends what is due. Every process polls; the claim in tick() makes each reminder go
 * out from one of them only, and what falls due while no process runs goes out at the next start.
 * Registered with fastify-plugin so the app itself has sendDueReminders.
 */
export const reminderRoutes = fp<ReminderRoutesOptions>(
  async (app, { clock, vapid, subject, pollMs = REMINDER_POLL_MS, allowLoopback }) => {
    const service = createReminderService({
      db: app.db,
      clock,
      sender: createPushSender({ vapid, subject, allowLoopback }),
      allowLoopback,
      // Open apps show a reminder at once, from the live stream.
      onFired: (userId, todoId) => app.live.publish(userId, { type: 'reminder.fired', id: todoId }),
      toChannels: (fired) =>
        app.notifications.remindersFired(
          fired.map(({ userId, reminder }) => ({
            userId,
            reminder: {
              todoId: reminder.todoId,
              title: reminder.title,
              dueDate: reminder.dueDate,
              dueTime: reminder.dueTime,
            },
          })),
        ),
      pushActions: (userId, todoId) => app.notifications.pushActions(userId, todoId),
      quietUntil: (userId, now) => app.notifications.quietUntil(userId, now),
    });
    const publicKey = vapid.publicKey;
    app.decorate('sendDueReminders', () => service.tick());
    if (pollMs > 0) {
      repeatWhileOpen(app, pollMs, 'reminder round', async () => {
        const result = await service.tick();
        if (result.claimed > 0) app.log.info({ reminders: result }, 'reminders sent');
      });
    }
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
  },
  { name: 'reminders', dependencies: ['database', 'notifications'] },
);
