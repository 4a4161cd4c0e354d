import { createHmac } from 'node:crypto';
import { LIMITS } from '@tally/contract';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import type { Kysely } from 'kysely';
import { createEmailLinks } from './account/email-links.js';
import { accountRoutes } from './account/routes.js';
import { deleteAccountRows } from './account/deletion.js';
import { adminRoutes } from './admin/routes.js';
import { authRoutes } from './auth/routes.js';
import { createSetupGate } from './auth/setup-token.js';
import { forwardAuthRoutes } from './auth/forward-auth.js';
import { createSecretBox } from './two-factor/secret-box.js';
import { twoFactorRoutes } from './two-factor/routes.js';
import { createTwoFactorService } from './two-factor/service.js';
import { passkeyRoutes, passkeySignInRoutes } from './passkeys/routes.js';
import { relyingPartyOf } from './passkeys/relying-party.js';
import { createPasskeyService } from './passkeys/service.js';
import { calendarRoutes } from './calendar/routes.js';
import { caldavRoutes } from './caldav/routes.js';
import type { Config } from './config.js';
import { scheduleBackups } from './db/backup-schedule.js';
import type { DatabaseHandle, DatabaseStats } from './db/connection.js';
import type { Database } from './db/schema.js';
import { savedFilterRoutes } from './filters/routes.js';
import { groupRoutes } from './groups/routes.js';
import { inboxRoutes } from './inbox/routes.js';
import { createInboxStatus } from './shared/inbox-status.js';
import { liveRoutes } from './live/routes.js';
import { mcpRoutes } from './mcp/routes.js';
import { apiDocsPlugin } from './plugins/api-docs.js';
import { authenticationPlugin } from './plugins/authentication.js';
import { databasePlugin } from './plugins/database.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { idempotencyPlugin } from './plugins/idempotency.js';
import { liveBusPlugin } from './plugins/live-bus.js';
import { metricsPlugin } from './plugins/metrics.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { notificationRoutes } from './notifications/routes.js';
import { reminderRoutes } from './reminders/routes.js';
import { resolveVapidKeys, type VapidKeys } from './secrets.js';
import { EARLY_ERROR_HEADERS, securityHeadersPlugin } from './plugins/security-headers.js';
import { validationPlugin } from './plugins/validation.js';
import { webAppPlugin } from './plugins/web-app.js';
import { type Clock, systemClock } from './shared/clock.js';
import { redactingLogger } from './shared/logging.js';
import { createMailer } from './shared/mailer.js';
import { createInsights } from './statistics/insights.js';
import { statisticsRoutes } from './statistics/routes.js';
import { systemRoutes } from './system/routes.js';
import { mergePlanning } from './todos/planning.js';
import { tagRoutes } from './tags/routes.js';
import { todoRoutes } from './todos/routes.js';
import { trashRoutes } from './todos/trash-routes.js';
import { transferRoutes } from './transfer/routes.js';
import { tokenRoutes } from './tokens/routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Waits for the e-mails sent after their answers (a reset request, a registration's link).
     * Shutdown waits the same way; a test waits on it before saying no more mail came.
     */
    settleEmail(): Promise<void>;
  }
}

export interface AppOptions {
  config: Config;
  database: {
    db: Kysely<Database>;
    stats?: () => DatabaseStats;
    dedicatedClient?: DatabaseHandle['dedicatedClient'];
    dialect?: DatabaseHandle['dialect'];
    /** Where tracing hooks in to see each query (server/src/db/observed-dialect.ts). */
    observeQueries?: DatabaseHandle['observeQueries'];
  };
  jwtSecret: string;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Whether closing the app closes the database (the tests keep theirs). */
  closeDatabase?: boolean;
  /** Run the periodic jobs (trash purge, e-mail token sweep, CalDAV change log pruning); the server does, tests mostly do not. */
  backgroundJobs?: boolean;
  /** Between the heartbeats of GET /api/events (tests shorten it). */
  liveHeartbeatMs?: number;
  /** Sees every route as it is added (the security suites sweep the whole route table). */
  onRoute?: (route: RouteOptions) => void;
  /** The VAPID key pair; by default VAPID_* or the pair kept in DATA_DIR. */
  vapidKeys?: VapidKeys;
  /** How often this process looks for reminders to send (ms); 0: never by itself (tests). */
  reminderPollMs?: number;
  /** Accept http push endpoints on loopback: only the tests' local push service. */
  allowLoopbackPush?: boolean;
  /** Run the e-mail-to-task fetcher when INBOX_IMAP_URL is set; by default with backgroundJobs. */
  inboxFetcher?: boolean | { leaseMs: number; retryMs: number };
  /** How often this process looks for channel deliveries (ms); 0: never by itself (tests). */
  notificationPollMs?: number;
}

/** Trusts the X-Forwarded-For entries added by the nearest `hops` proxies (hop 0 is the peer). */
const trustNearestHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Builds the whole app without listening, so tests can inject requests or bind any port. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: options.logger ? redactingLogger(options.logger) : false,
    bodyLimit: LIMITS.bodyLimitBytes,
    // A hop count as a function: Fastify takes numbers no more (they could not check the peer).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? trustNearestHops(config.trustProxy)
        : config.trustProxy,
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    return503OnClosing: true,
    // A path parameter as long as a URL may be (the router's default stops at 100 characters and
    // answers 404): a CalDAV client's calendar or object name is refused by its own rule, 400.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16_384 },
    // A URL the router cannot decode (e.g. /api/todos/%_%) gets the usual {error} body.
    frameworkErrors: (_error, _request, reply) =>
      void (reply as FastifyReply)
        .code(400)
        .headers(EARLY_ERROR_HEADERS)
        .send({ error: 'The request URL is malformed (bad percent-encoding)' }),
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  if (config.otlpEndpoint) {
    // Loaded only when asked: without the setting nothing of OpenTelemetry is ever imported.
    const { tracingPlugin } = await import('./plugins/tracing.js');
    await app.register(tracingPlugin, {
      endpoint: config.otlpEndpoint,
      database: options.database,
    });
  }

  await app.register(errorHandlerPlugin);
  await app.register(validationPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(metricsPlugin, {
    token: config.metricsToken,
    ...(options.database.stats ? { databaseStats: options.database.stats } : {}),
  });
  await app.register(rateLimitPlugin, { redisUrl: config.redisUrl, clock });
  await app.register(databasePlugin, {
    ...options.database,
    closeOnShutdown: options.closeDatabase ?? true,
  });
  await app.register(authenticationPlugin, { secret: options.jwtSecret, clock });
  await app.register(idempotencyPlugin, { clock });
  await app.register(liveBusPlugin, {
    redisUrl: config.redisUrl,
    ...(options.database.dedicatedClient
      ? { dedicatedClient: options.database.dedicatedClient }
      : {}),
  });
  await app.register(apiDocsPlugin);

  const google = config.googleClientId
    ? {
        clientId: config.googleClientId,
        jwksUrl: config.googleJwksUrl,
        issuers: config.googleIssuers,
      }
    : null;
  // E-mailed links, shared by registration (auth) and the account calls.
  const mailer =
    config.smtpUrl && config.mailFrom ? createMailer(config.smtpUrl, config.mailFrom) : null;
  const links = createEmailLinks({
    db: options.database.db,
    mailer,
    publicUrl: config.publicUrl,
    clock,
  });
  // Added after the database plugin, so it runs before the database closes (hooks run last first).
  app.addHook('onClose', () => links.drain());
  app.decorate('settleEmail', () => links.drain());
  const twoFactor = createTwoFactorService({
    db: options.database.db,
    clock,
    // Its own key: TOTP secrets are encrypted with it, never with the signing key itself.
    box: createSecretBox(
      createHmac('sha256', options.jwtSecret).update('tally two-factor secrets').digest(),
    ),
    issuer: `Tally (${new URL(config.publicUrl).host})`,
  });
  // Passkeys: signing in with one is registered with the auth routes, managing them apart.
  const passkeys = createPasskeyService({
    db: options.database.db,
    clock,
    rp: relyingPartyOf(config.publicUrl),
  });
  const setupGate = createSetupGate(options.database.db, config.setupToken);
  await app.register(authRoutes, {
    clock,
    google,
    twoFactor,
    trustProviderMfa: config.trustProviderMfa,
    rateLimitPerMinute: config.authRateLimitPerMinute,
    loginAttemptsPerAccount: config.loginAttemptsPerAccount,
    // Its own key, so a device cookie's signature can never stand for an access token's.
    deviceCookieSecret: createHmac('sha256', options.jwtSecret)
      .update('tally device cookie')
      .digest(),
    sessionMaxDays: config.sessionMaxDays,
    sessionIdleDays: config.sessionIdleDays,
    registration: config.registration,
    setupGate,
    signInMethods: [
      passkeySignInRoutes(passkeys),
      forwardAuthRoutes({ header: config.authProxyHeader, trusted: config.authProxyTrusted }),
    ],
    oidc: config.oidc,
    publicUrl: config.publicUrl,
    onRegistered: (account, request) => links.sendVerificationLater(account, request.log),
  });
  await app.register(accountRoutes, {
    clock,
    links,
    google,
    rateLimitPerMinute: config.authRateLimitPerMinute,
    sessionIdleDays: config.sessionIdleDays,
    sweep: options.backgroundJobs ?? false,
  });
  await app.register(twoFactorRoutes, { twoFactor });
  await app.register(passkeyRoutes, { passkeys });
  await app.register(tokenRoutes, { clock });
  await app.register(calendarRoutes, { clock, publicUrl: config.publicUrl });
  await app.register(caldavRoutes, {
    clock,
    loginAttemptsPerAccount: config.loginAttemptsPerAccount,
    prune: options.backgroundJobs ?? false,
  });
  await app.register(todoRoutes, { clock });
  const fetcher = options.inboxFetcher ?? options.backgroundJobs ?? false;
  const inboxStatus = createInboxStatus();
  await app.register(inboxRoutes, {
    clock,
    inbox: config.inbox,
    status: inboxStatus,
    fetch: fetcher !== false,
    ...(typeof fetcher === 'object' ? { fetcherTimes: fetcher } : {}),
  });
  await app.register(tagRoutes);
  const insights = createInsights(options.database.db, clock);
  await app.register(notificationRoutes, {
    clock,
    allowPrivate: config.outboundAllowPrivate,
    pushoverApiUrl: config.pushoverApiUrl,
    mailer:
      config.smtpUrl && config.mailFrom ? createMailer(config.smtpUrl, config.mailFrom) : null,
    publicUrl: config.publicUrl,
    jwtSecret: options.jwtSecret,
    dayRecord: async (userId, yesterday, zone) => {
      // A half year back: a longer streak shows as that long in the digest.
      const { heatmap, streak } = await insights(userId, 26, zone);
      const doneYesterday = heatmap.find((day) => day.date === yesterday)?.completed ?? 0;
      return { doneYesterday, streak: streak.current };
    },
    ...(options.notificationPollMs === undefined ? {} : { pollMs: options.notificationPollMs }),
  });
  await app.register(reminderRoutes, {
    clock,
    vapid: options.vapidKeys ?? resolveVapidKeys(config),
    subject: config.vapidSubject,
    allowLoopback: options.allowLoopbackPush ?? false,
    ...(options.reminderPollMs === undefined ? {} : { pollMs: options.reminderPollMs }),
  });
  await app.register(trashRoutes, { clock, purge: options.backgroundJobs ?? false });
  await app.register(groupRoutes, { clock });
  await app.register(savedFilterRoutes, { clock });
  await app.register(statisticsRoutes, { clock });
  await app.register(transferRoutes, {
    clock,
    // Imports check due dates and repeats as the todo calls do.
    checkPlanning: (planning) =>
      mergePlanning({ dueDate: null, dueTime: null, repeat: null }, planning),
  });
  await app.register(mcpRoutes, { clock, publicUrl: config.publicUrl });
  await app.register(liveRoutes, {
    ...(options.liveHeartbeatMs ? { heartbeatMs: options.liveHeartbeatMs } : {}),
  });
  await app.register(adminRoutes, {
    clock,
    config,
    inboxStatus,
    mailer,
    sendVerification: (recipient) => links.sendVerification(recipient),
    deleteAccount: (userId) => deleteAccountRows(options.database.db, userId),
  });
  await app.register(systemRoutes, {
    publicConfig: {
      googleClientId: config.googleClientId,
      registration: config.registration,
      passwordResetByEmail: config.smtpUrl !== null,
      oidc: config.oidc ? { name: config.oidc.name } : null,
      passwordSignIn: !(config.oidc?.only ?? false),
      authProxy: config.authProxyHeader !== null,
    },
    setupPending: setupGate.pending,
  });
  if ((options.backgroundJobs ?? false) && config.backup.schedule) {
    scheduleBackups(app, { config, clock, schedule: config.backup.schedule });
  }
  await app.register(webAppPlugin, { distDir: config.webDistDir });
  return app;
}
