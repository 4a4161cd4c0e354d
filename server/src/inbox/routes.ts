import { inboxApi } from '@tally/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { InboxConfig } from '../config.js';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { notFound } from '../shared/errors.js';
import type { Fetcher } from './fetcher.js';
import { createInboxService } from './service.js';
import type { InboxStatus } from '../shared/inbox-status.js';

export interface InboxRoutesOptions {
  clock: Clock;
  /** INBOX_*: null when the operator names no mailbox (no address, no fetcher). */
  inbox: InboxConfig | null;
  /** Whether this process runs the fetcher (one of all processes holds it at a time). */
  fetch: boolean;
  /** What the fetcher tells the admin page's health. */
  status: InboxStatus;
  /** The fetcher's lease and retry times (tests shorten them). */
  fetcherTimes?: { leaseMs: number; retryMs: number };
}

/**
 * Settings → E-mail to task (docs/product.md, E-mail to task): the address, renewing it and the
 * sender rule, under /api/account so only a signed-in session reaches them; and the fetcher that
 * turns mail to those addresses into todos.
 */
export const inboxRoutes: FastifyPluginAsync<InboxRoutesOptions> = async (app, options) => {
  const { clock, inbox } = options;
  const service = createInboxService({ db: app.db, clock, inbox });

  addEndpoint(app, inboxApi.get, async (request) => service.get(request.user.id));

  addEndpoint(app, inboxApi.renew, async (request) => {
    const renewed = await service.renew(request.user.id);
    if (!renewed) throw notFound('E-mail to task');
    request.log.warn(
      { security: 'inbox-address-renewed', userId: request.user.id, ip: request.ip },
      'E-mail-to-task address renewed; the old one stopped working',
    );
    return renewed;
  });

  addEndpoint(app, inboxApi.update, async (request) =>
    service.setOnlyFromMyAddresses(request.user.id, request.body.onlyFromMyAddresses),
  );

  if (inbox !== null && options.fetch) {
    let fetcher: Fetcher | null = null;
    app.addHook('onReady', async () => {
      // imapflow and mailparser (1.5 MB of bundled code with their encodings) are imported only
      // by a server that names a mailbox (decision 157).
      const { startInboxFetcher } = await import('./fetcher.js');
      fetcher = startInboxFetcher({
        db: app.db,
        clock,
        inbox,
        service,
        log: app.log,
        status: options.status,
        onCreated: (userId, todoId) =>
          app.live.publish(userId, { type: 'todo.created', id: todoId }),
        ...options.fetcherTimes,
      });
    });
    // Registered after the database plugin, so it runs before the database closes.
    app.addHook('onClose', async () => {
      await fetcher?.stop();
    });
  }
};
