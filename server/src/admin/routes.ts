import { adminApi } from '@tally/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { InboxStatus } from '../shared/inbox-status.js';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { AppError, conflict, notFound, serviceUnavailable } from '../shared/errors.js';
import { type Mailer, mailErrorForLog } from '../shared/mailer.js';
import { type Actor, createAdminService } from './service.js';

export interface AdminRoutesOptions {
  clock: Clock;
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'redisUrl' | 'backup' | 'inbox'>;
  /** What this process's inbox fetcher is doing (e-mail to task). */
  inboxStatus: InboxStatus;
  /** Null when the server sends no e-mail (no SMTP_URL). */
  mailer: Mailer | null;
  /** The account feature's verification link, as registration sends it. */
  sendVerification: (recipient: { id: number; username: string; email: string }) => Promise<void>;
  /** The account feature's deletion of an account and all its rows, as `tally user delete`. */
  deleteAccount: (userId: number) => Promise<void>;
}

const NOT_OPERATOR = 'Only an operator may use the admin page';

/** How long the health check waits for Redis and the SMTP server. */
const PROBE_TIMEOUT_MS = 3_000;

const withTimeout = <T>(work: Promise<T>, what: string) =>
  Promise.race([
    work,
    new Promise<never>((_resolve, reject) =>
      setTimeout(
        () => reject(new Error(`${what} did not answer in time`)),
        PROBE_TIMEOUT_MS,
      ).unref(),
    ),
  ]);

/**
 * The admin page's calls (docs/decisions/131-operator-and-admin-page.md): every one is refused
 * (403) to an account that is not an operator, checked in the database on each request so that
 * taking the role away (`tally admin revoke`) takes effect at once.
 */
export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
  const { clock, config, mailer, sendVerification } = options;
  const service = createAdminService({ db: app.db, clock, deleteAccount: options.deleteAccount });

  // After the app-wide authentication hook (request.user is set), before the body is read.
  app.addHook('onRequest', async (request) => {
    if (!(await service.isOperator(request.user.id)))
      throw new AppError(403, NOT_OPERATOR, {}, 'operator_only');
  });

  const actorOf = (request: FastifyRequest): Actor => ({
    id: request.user.id,
    username: request.user.username,
  });
  const security = (request: FastifyRequest, event: string, target: string | null) =>
    request.log.warn(
      { security: `admin-${event}`, userId: request.user.id, ip: request.ip, target },
      `Admin action: ${event}`,
    );

  addEndpoint(app, adminApi.users, async () => service.users());

  addEndpoint(app, adminApi.disable, async (request) => {
    if (request.params.id === request.user.id) {
      throw conflict('You cannot disable your own account');
    }
    const user = await service.setDisabled(actorOf(request), request.params.id, true);
    if (!user) throw notFound('Account');
    security(request, 'disable', user.username);
    return user;
  });

  addEndpoint(app, adminApi.enable, async (request) => {
    const user = await service.setDisabled(actorOf(request), request.params.id, false);
    if (!user) throw notFound('Account');
    security(request, 'enable', user.username);
    return user;
  });

  addEndpoint(app, adminApi.remove, async (request, reply) => {
    if (request.params.id === request.user.id) {
      throw conflict('Delete your own account in Settings, not here');
    }
    const user = await service.user(request.params.id);
    if (!user || !(await service.remove(actorOf(request), request.params.id))) {
      throw notFound('Account');
    }
    security(request, 'delete', user.username);
    return reply.code(204).send();
  });

  addEndpoint(app, adminApi.resendVerification, async (request, reply) => {
    const user = await service.user(request.params.id);
    if (!user) throw notFound('Account');
    if (user.emailVerified) throw conflict(`The address of ${user.username} is verified already`);
    if (!mailer) throw serviceUnavailable('E-mail is not configured (SMTP_URL)');
    try {
      await sendVerification(user);
    } catch (error) {
      request.log.error({ err: mailErrorForLog(error) }, 'Admin: verification e-mail failed');
      throw serviceUnavailable('The SMTP server did not accept the e-mail; see the server log');
    }
    await service.note(actorOf(request), 'resend-verification', user.username);
    security(request, 'resend-verification', user.username);
    return reply.code(202).send();
  });

  addEndpoint(app, adminApi.endSessions, async (request) => {
    const ended = await service.endSessions(actorOf(request), request.params.id);
    if (ended === null) throw notFound('Account');
    security(request, 'end-sessions', String(request.params.id));
    return { ended };
  });

  addEndpoint(app, adminApi.health, async () => {
    const [base, redis, mail, imap] = await Promise.all([
      service.health(config.databaseUrl ? 'PostgreSQL' : 'SQLite', config),
      config.redisUrl ? probeRedis(config.redisUrl) : null,
      mailer
        ? withTimeout(mailer.verify(), 'The SMTP server').then(
            () => ({ ok: true, detail: 'The SMTP server accepts a connection' }),
            (error: unknown) => ({ ok: false, detail: mailErrorForLog(error).message }),
          )
        : null,
      config.inbox ? service.imapHealth(options.inboxStatus) : null,
    ]);
    return { ...base, redis, mail, imap };
  });

  addEndpoint(app, adminApi.testEmail, async (request) => {
    if (!mailer) throw serviceUnavailable('E-mail is not configured (SMTP_URL)');
    const me = await service.user(request.user.id);
    if (!me) throw notFound('Account');
    const text = `Hello ${me.username},\n\nthis is a test e-mail from the admin page of Tally. E-mail works.\n`;
    try {
      await mailer.send({
        to: me.email,
        subject: 'Tally test e-mail',
        text,
        html: `<p>Hello ${me.username},</p>\n<p>this is a test e-mail from the admin page of Tally. E-mail works.</p>`,
      });
    } catch (error) {
      const reason = mailErrorForLog(error);
      request.log.error({ err: reason }, 'Admin: test e-mail failed');
      throw serviceUnavailable(`The SMTP server did not accept the e-mail: ${reason.message}`);
    }
    await service.note(actorOf(request), 'test-email', null);
    return { to: me.email };
  });

  addEndpoint(app, adminApi.auditLog, async () => service.auditLog());
};

/** Whether Redis answers a PING, on a connection of its own that is closed at once. */
async function probeRedis(url: string): Promise<{ ok: boolean; detail: string }> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: PROBE_TIMEOUT_MS,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await withTimeout(redis.connect(), 'Redis');
    const answer = await withTimeout(redis.ping(), 'Redis');
    return { ok: answer === 'PONG', detail: answer === 'PONG' ? 'Redis answers' : answer };
  } catch (error) {
    return { ok: false, detail: (error as Error).message };
  } finally {
    redis.disconnect();
  }
}
