import { notificationsApi } from '@tally/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { notFound } from '../shared/errors.js';
import { mailErrorForLog, type Mailer } from '../shared/mailer.js';
import { repeatWhileOpen } from '../shared/periodic-job.js';
import { userPreferences } from '../account/preferences.js';
import { type ServerTexts, textsForPage } from '../shared/languages/index.js';
import { createTodoService } from '../todos/service.js';
import { createActionLinks } from './action-links.js';
import { createReminderActions } from './actions.js';
import { createDigests, type DayRecord } from './digest.js';
import { escapeHtml } from './email.js';
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
      | 'remindersFired'
      | 'pushActions'
      | 'todoData'
      | 'todoEvent'
      | 'todoEvents'
      | 'importEvents'
      | 'groupEvent'
      | 'quietUntil'
    >;
    /** One round of channel deliveries now (the poller runs these; tests call it directly). */
    sendDueNotifications(): Promise<NotificationTickResult>;
    /** Sends the daily digests due now (every minute; tests call it directly). */
    sendDueDigests(): Promise<number>;
    /** Removes old finished deliveries (hourly; tests call it directly). */
    pruneNotifications(): Promise<number>;
  }
}

/** Digests are looked for this often: each goes out within a minute of its time. */
const DIGEST_POLL_MS = 60_000;

/** Old delivery rows and used links are pruned this often. */
const PRUNE_MS = 60 * 60_000;

/** Deliveries are looked for this often. */
const NOTIFICATION_POLL_MS = 5_000;

export interface NotificationRoutesOptions {
  clock: Clock;
  allowPrivate: boolean;
  pushoverApiUrl: string;
  mailer: Mailer | null;
  publicUrl: string;
  /** Signs the links that act without signing in (a key derived from it, for them alone). */
  jwtSecret: string;
  /** Yesterday's completions and the streak, for the digest (Insights). */
  dayRecord: DayRecord;
  /** 0: never by itself (tests call sendDueNotifications). */
  pollMs?: number;
}

/**
 * Notification channels and their delivery queue (docs/decisions/143-notification-channels.md).
 * Every process polls; a delivery's lease makes one of them send it, and what was queued before
 * a restart goes out after it.
 */
export const notificationRoutes = fp<NotificationRoutesOptions>(
  async (app, { pollMs = NOTIFICATION_POLL_MS, jwtSecret, dayRecord, ...options }) => {
    const actionLinks = createActionLinks({
      jwtSecret,
      publicUrl: options.publicUrl,
      clock: options.clock,
    });
    const service = createNotificationService({
      db: app.db,
      ...options,
      actionLinks,
      zoneOf: async (userId) => (await userPreferences(app.db, userId)).timeZone,
      onAttempt: (kind, outcome) => app.countDelivery(kind, outcome),
      onError: (error) =>
        app.log.warn({ err: mailErrorForLog(error) }, 'channel turned off: e-mail failed'),
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
      remindersFired: service.remindersFired,
      pushActions: service.pushActions,
      todoData: service.todoData,
      todoEvent: logged(service.todoEvent),
      groupEvent: logged(service.groupEvent),
      todoEvents: logged(service.todoEvents),
      importEvents: logged(service.importEvents),
      quietUntil: service.quietUntil,
    });
    app.decorate('sendDueNotifications', () => service.tick());
    app.decorate('pruneNotifications', () => service.prune());
    const digests = createDigests({
      db: app.db,
      clock: options.clock,
      mailer: options.mailer,
      links: actionLinks,
      publicUrl: options.publicUrl,
      dayRecord,
      onError: (error) => app.log.warn({ err: mailErrorForLog(error) }, 'digest not sent'),
    });
    app.decorate('sendDueDigests', () => digests.tick());
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

    addEndpoint(app, notificationsApi.settings, async (request) =>
      service.settings(request.user.id),
    );

    addEndpoint(app, notificationsApi.updateSettings, async (request) =>
      service.updateSettings(request.user.id, request.body),
    );

    const todos = createTodoService(app.db, options.clock);
    const actions = createReminderActions({
      db: app.db,
      clock: options.clock,
      links: actionLinks,
      complete: async (userId, todoId, zone) => {
        const before = await service.todoData(userId, todoId);
        const todo = await todos.update(userId, todoId, { patch: { completed: true } }, zone);
        if (!todo) return false;
        app.live.publish(userId, { type: 'todo.updated', id: todoId });
        await logged(service.todoEvent)(
          userId,
          before?.completed === false ? 'todo.completed' : 'todo.updated',
          todoId,
        );
        return true;
      },
    });
    // The links are opened from mail and phones: a form's post, ntfy's bodiless POST and a
    // mail client's one-click unsubscribe (List-Unsubscribe=One-Click) are all taken, and their
    // body is not read. Only these routes take form bodies.
    await app.register(async (links) => {
      links.addContentTypeParser(
        ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'],
        { parseAs: 'string', bodyLimit: 1024 },
        (_request, _body, done) => done(null, undefined),
      );
      const html = (
        reply: FastifyReply,
        texts: ServerTexts,
        code: number,
        title: string,
        lines: string[],
      ) =>
        reply
          .code(code)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('x-robots-tag', 'noindex')
          .header('content-language', texts.tag)
          .send(
            `<!doctype html><html lang="${texts.tag}" dir="${texts.dir}"><meta charset="utf-8">` +
              `<meta name="viewport" content="width=device-width, initial-scale=1">` +
              `<title>${escapeHtml(title)} · Tally</title>` +
              `<h1>${escapeHtml(title)}</h1>${lines.join('')}</html>`,
          );
      // The account's language when the link names one, else the browser's (decision 179).
      const textsOf = async (request: FastifyRequest, userId: number | null) =>
        textsForPage(
          userId === null ? null : (await userPreferences(app.db, userId)).language,
          request.headers['accept-language'],
        );
      const invalid = (reply: FastifyReply, texts: ServerTexts) =>
        html(reply, texts, 404, texts.pages.invalidTitle, [
          `<p>${escapeHtml(texts.pages.invalidBody)}</p>`,
        ]);
      const button = (label: string) =>
        `<form method="post"><button type="submit">${escapeHtml(label)}</button></form>`;

      addEndpoint(links, notificationsApi.actionPage, async (request, reply) => {
        const described = await actions.describe(request.query.token);
        const texts = await textsOf(request, described?.userId ?? null);
        if (!described) return invalid(reply, texts);
        return html(reply, texts, 200, described.title, [button(texts.actions[described.action])]);
      });

      addEndpoint(links, notificationsApi.action, async (request, reply) => {
        const outcome = await actions.use(request.query.token);
        const texts = await textsOf(request, outcome.kind === 'invalid' ? null : outcome.userId);
        if (outcome.kind === 'invalid') return invalid(reply, texts);
        if (outcome.kind === 'used') {
          return html(reply, texts, 410, texts.pages.usedTitle, [
            `<p>${escapeHtml(texts.pages.usedBody)}</p>`,
          ]);
        }
        const what =
          outcome.action === 'complete'
            ? texts.pages.completed
            : texts.pages.snoozed[outcome.action];
        return html(reply, texts, 200, outcome.title, [`<p>${escapeHtml(what)}</p>`]);
      });

      addEndpoint(links, notificationsApi.unsubscribePage, async (request, reply) => {
        const userId = await actionLinks.readUnsubscribe(request.query.token);
        const texts = await textsOf(request, userId);
        if (userId === null) return invalid(reply, texts);
        return html(reply, texts, 200, texts.pages.unsubscribeTitle, [
          button(texts.pages.unsubscribeButton),
        ]);
      });

      addEndpoint(links, notificationsApi.unsubscribe, async (request, reply) => {
        const userId = await actionLinks.readUnsubscribe(request.query.token);
        const texts = await textsOf(request, userId);
        if (userId === null) return invalid(reply, texts);
        await service.updateSettings(userId, { digestTime: null });
        return html(reply, texts, 200, texts.pages.unsubscribedTitle, [
          `<p>${escapeHtml(texts.pages.unsubscribedBody)}</p>`,
        ]);
      });
    });

    if (pollMs > 0) {
      repeatWhileOpen(app, DIGEST_POLL_MS, 'digest round', () => digests.tick());
      repeatWhileOpen(app, PRUNE_MS, 'notification pruning', async () => {
        await actions.prune(options.clock());
        await service.prune();
      });
    }
  },
  { name: 'notifications', dependencies: ['database', 'metrics'] },
);
