import { LIVE_CLIENT_HEADER, LIVE_CLIENT_PATTERN, type LiveEvent, routes } from '@tally/contract';

import type { FastifyBaseLogger, FastifyRequest, onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis, RedisOptions } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from '../db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tells a user's open event streams, in every process, what changed. */
    live: LiveBus;
  }
}

/** One open stream of a user, as the bus sees it. */
interface LiveSubscriber {
  event(event: LiveEvent): void;
  /**
   * The bus lost its listening connection and may have missed events: the stream ends, and its
   * client reconnects and fetches again what it shows.
   */
  lost(): void;
  /** The user's sessions or tokens may have ended: the stream checks its own at once. */
  accessChanged(): void;
}

const CLIENT_ID = new RegExp(LIVE_CLIENT_PATTERN);

/**
 * Live updates between a user's clients (docs/decisions/061-live-updates.md). Any feature that
 * changes a user's data calls `app.live.publish(userId, event)` once its transaction has
 * committed; GET /api/events (server/src/live/routes.ts) subscribes each open stream.
 */
interface LiveBus {
  /**
   * Tells every open stream of the user, in every server process, about the event. Call it after
   * the change is committed (a rolled-back change must not be announced). Never throws and never
   * delays the caller: a failure to publish is logged, and the other clients see the change at
   * their next fetch. `origin`, the request that made the change: its X-Tally-Client header goes
   * with the event as `client`, so the tab that made the change can tell it from another's.
   */
  publish(userId: number, event: LiveEvent, origin?: Pick<FastifyRequest, 'headers'>): void;
  /**
   * Tells the user's open streams (null: everyone's), in every server process, that a session
   * or an API token may have ended, so each checks its own at once instead of at its next
   * heartbeat (docs/decisions/075-live-streams-end-with-their-access.md).
   */
  accessChanged(userId: number | null): void;
  /**
   * Delivers the user's events to `subscriber` from the moment this resolves (the bus listens by
   * then), until the returned function is called. Rejects when the bus cannot listen.
   */
  subscribe(userId: number, subscriber: LiveSubscriber): Promise<() => void>;
  /** Open subscriptions and the connections held to listen (for the leak tests). */
  stats(): { users: number; subscribers: number; connections: number };
}

/** How a message reaches every process: one connection per process listens, lazily opened. */
interface Transport {
  publish(message: string): Promise<void>;
  /** Listens until `onLost` is called (once), or until close(). */
  listen(onMessage: (message: string) => void, onLost: () => void): Promise<void>;
  close(): Promise<void>;
  /** Connections held for listening now. */
  connections(): number;
}

/** SQLite means one process: an event goes straight to this process's streams. */
function memoryTransport(): Transport {
  let deliver: ((message: string) => void) | null = null;
  return {
    async publish(message) {
      // After the caller's answer is on its way, as the other transports deliver.
      setImmediate(() => deliver?.(message));
    },
    async listen(onMessage) {
      deliver = onMessage;
    },
    async close() {
      deliver = null;
    },
    connections: () => 0,
  };
}

/**
 * The channel name: one per database schema, since NOTIFY reaches every session of the
 * database and Redis every client of the server (the tests give each run a schema of its own).
 */
function channelOf(db: Kysely<Database>, prefix: string) {
  let name: Promise<string> | null = null;
  return () => {
    name ??= sql<{ schema: string }>`select current_schema() as schema`.execute(db).then(
      ({ rows }) => `${prefix}${rows[0]?.schema ?? 'public'}`.slice(0, 63),
      (error: unknown) => {
        name = null;
        throw error;
      },
    );
    return name;
  };
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** PostgreSQL: NOTIFY through the pool, LISTEN on one dedicated connection per process. */
function postgresTransport(db: Kysely<Database>, dedicatedClient: () => pg.Client): Transport {
  const channel = channelOf(db, 'tally_events:');
  let client: pg.Client | null = null;
  const release = (c: pg.Client) => {
    c.removeAllListeners();
    // An error after this point has nobody to tell; without a listener it would crash.
    c.on('error', () => undefined);
    return c.end().catch(() => undefined);
  };
  return {
    async publish(message) {
      await sql`select pg_notify(${await channel()}, ${message})`.execute(db);
    },
    async listen(onMessage, onLost) {
      const name = await channel();
      const c = dedicatedClient();
      let listening = false;
      const lose = () => {
        if (client !== c) return;
        client = null;
        void release(c);
        if (listening) onLost();
      };
      client = c;
      c.on('error', lose);
      c.on('end', lose);
      c.on('notification', ({ channel: from, payload }) => {
        if (from === name && payload !== undefined) onMessage(payload);
      });
      try {
        await c.connect();
        await c.query(`LISTEN ${quoteIdentifier(name)}`);
      } catch (error) {
        if (client === c) client = null;
        void release(c);
        throw error;
      }
      if (client !== c) throw new Error('The listening connection closed as it opened');
      listening = true;
    },
    async close() {
      const c = client;
      client = null;
      if (c) await release(c);
    },
    connections: () => (client ? 1 : 0),
  };
}

/** Redis (REDIS_URL with PostgreSQL): PUBLISH on one connection, SUBSCRIBE on another. */
function redisTransport(db: Kysely<Database>, url: string): Transport {
  const channel = channelOf(db, 'tally:events:');
  // Loaded only when REDIS_URL asks for it, as the rate-limit plugin does (memory at start).
  const connect = async (options: RedisOptions) => {
    const { Redis } = await import('ioredis');
    return new Redis(url, options);
  };
  let publisher: Promise<Redis> | null = null;
  let subscriber: Redis | null = null;
  const release = (r: Redis) => {
    r.removeAllListeners();
    r.on('error', () => undefined);
    r.disconnect();
  };
  return {
    async publish(message) {
      publisher ??= connect({ connectTimeout: 2_000, maxRetriesPerRequest: 1 }).then((r) => {
        r.on('error', () => undefined);
        return r;
      });
      await (await publisher).publish(await channel(), message);
    },
    async listen(onMessage, onLost) {
      const name = await channel();
      // No reconnecting by itself: messages sent while it was away are lost, so the streams end
      // and their clients catch up; the next stream opens a new connection.
      const r = await connect({
        connectTimeout: 2_000,
        maxRetriesPerRequest: 1,
        retryStrategy: () => null,
      });
      let listening = false;
      const lose = () => {
        if (subscriber !== r) return;
        subscriber = null;
        release(r);
        if (listening) onLost();
      };
      subscriber = r;
      r.on('error', () => undefined);
      r.on('end', lose);
      r.on('message', (from: string, message: string) => {
        if (from === name) onMessage(message);
      });
      try {
        await r.subscribe(name);
      } catch (error) {
        if (subscriber === r) subscriber = null;
        release(r);
        throw error;
      }
      if (subscriber !== r) throw new Error('The listening connection closed as it opened');
      listening = true;
    },
    async close() {
      if (subscriber) release(subscriber);
      const published = await publisher?.catch(() => null);
      if (published) release(published);
      subscriber = null;
      publisher = null;
    },
    connections: () => (subscriber ? 1 : 0),
  };
}

/** The first element of a bus message that is not a user's event but `accessChanged`. */
const ACCESS_CHANGED = 'access-changed';

/** The user-by-user delivery over a transport. */
function createLiveBus(transport: Transport, log: FastifyBaseLogger) {
  const byUser = new Map<number, Set<LiveSubscriber>>();
  let listening: Promise<void> | null = null;

  const deliver = (message: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    if (!Array.isArray(parsed)) return;
    if (parsed[0] === ACCESS_CHANGED) {
      const userId: unknown = parsed[1];
      const targets = typeof userId === 'number' ? [byUser.get(userId)] : [...byUser.values()];
      for (const subscribers of targets) {
        for (const subscriber of [...(subscribers ?? [])]) subscriber.accessChanged();
      }
      return;
    }
    if (typeof parsed[0] !== 'number') return;
    const subscribers = byUser.get(parsed[0]);
    if (!subscribers) return;
    for (const subscriber of [...subscribers]) subscriber.event(parsed[1] as LiveEvent);
  };

  const lost = () => {
    listening = null;
    log.warn('live updates: the listening connection was lost; open streams end and reconnect');
    for (const subscribers of [...byUser.values()]) {
      for (const subscriber of [...subscribers]) subscriber.lost();
    }
  };

  // One message at a time, in the order of the changes: two NOTIFYs sent at once through two
  // pooled connections could arrive swapped (a group renamed, then a todo deleted, told the
  // other way round: server/src/live/live.test.ts saw it on PostgreSQL).
  let sending: Promise<void> = Promise.resolve();
  const send = (message: string, failure: string) => {
    sending = sending
      .then(() => transport.publish(message))
      .catch((error: unknown) => {
        log.warn({ err: error }, failure);
      });
  };

  const bus: LiveBus & { close(): Promise<void> } = {
    publish(userId, event, origin) {
      const client = origin?.headers[LIVE_CLIENT_HEADER];
      const told =
        typeof client === 'string' && CLIENT_ID.test(client) ? { ...event, client } : event;
      send(JSON.stringify([userId, told]), 'live updates: a change could not be published');
    },
    accessChanged(userId) {
      send(
        JSON.stringify([ACCESS_CHANGED, userId]),
        'live updates: an ended session could not be announced',
      );
    },
    async subscribe(userId, subscriber) {
      listening ??= transport.listen(deliver, lost).catch((error: unknown) => {
        listening = null;
        throw error;
      });
      const current = listening;
      await current;
      if (listening !== current) throw new Error('The listening connection was lost');
      let subscribers = byUser.get(userId);
      if (!subscribers) byUser.set(userId, (subscribers = new Set()));
      subscribers.add(subscriber);
      return () => {
        const now = byUser.get(userId);
        if (!now?.delete(subscriber)) return;
        if (now.size === 0) byUser.delete(userId);
      };
    },
    stats() {
      let subscribers = 0;
      for (const set of byUser.values()) subscribers += set.size;
      return { users: byUser.size, subscribers, connections: transport.connections() };
    },
    async close() {
      listening = null;
      // What was published before the close still goes out.
      await sending;
      await transport.close();
    },
  };
  return bus;
}

/** The calls after which a session or an API token may no longer be good. */
const ACCESS_ENDING = [
  routes.auth.logout,
  routes.auth.refresh,
  routes.auth.resetPassword,
  routes.account.changePassword,
  routes.account.endSession,
  routes.account.endOtherSessions,
  routes.account.remove,
  routes.tokens.revoke,
];

export interface LiveBusPluginOptions {
  /** With PostgreSQL, Redis carries the events instead of LISTEN/NOTIFY when this is set. */
  redisUrl: string | null;
  /** Set on PostgreSQL (server/src/db/connection.ts); unset, SQLite: one process. */
  dedicatedClient?: () => pg.Client;
}

/**
 * The bus of live updates (docs/decisions/061-live-updates.md): in this process's memory on
 * SQLite (one process), across processes through PostgreSQL LISTEN/NOTIFY, or Redis pub/sub
 * when REDIS_URL is set too.
 */
export const liveBusPlugin = fp<LiveBusPluginOptions>(
  async (app, { redisUrl, dedicatedClient }) => {
    const transport = !dedicatedClient
      ? memoryTransport()
      : redisUrl
        ? redisTransport(app.db, redisUrl)
        : postgresTransport(app.db, dedicatedClient);
    const bus = createLiveBus(transport, app.log);
    app.decorate('live', bus as LiveBus);
    app.addHook('onClose', () => bus.close());

    // The calls that can end a session or an API token announce it once answered, so the
    // streams they ended close at once, in every process. Added to those routes alone: other
    // requests pay nothing.
    const announce: onResponseHookHandler = (request, reply, done) => {
      const refresh = request.routeOptions.url === routes.auth.refresh.path;
      // A refresh ends a session only when it finds its token reused, and then answers 401.
      if (refresh ? reply.statusCode === 401 : reply.statusCode < 300) {
        // The public calls (logout, reset, refresh) do not know the account: every stream checks.
        const user = request.user as FastifyRequest['user'] | undefined;
        bus.accessChanged(user?.id ?? null);
      }
      done();
    };
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!ACCESS_ENDING.some((r) => r.path === route.url && methods.includes(r.method))) return;
      const existing = route.onResponse ?? [];
      route.onResponse = [...(Array.isArray(existing) ? existing : [existing]), announce];
    });
  },
  { name: 'live-bus', dependencies: ['database'] },
);
