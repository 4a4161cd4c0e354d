import cluster from 'node:cluster';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { Registry } from 'prom-client';
import type { DatabaseStats } from '../db/connection.js';
import { AppError } from '../shared/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts one notification delivery attempt by channel kind and outcome (sent, failed, retried). */
    countDelivery(channel: string, outcome: string): void;
  }
}

export interface MetricsPluginOptions {
  /** METRICS_TOKEN; null answers 404 at /metrics and loads nothing. */
  token: string | null;
  databaseStats?: () => DatabaseStats;
}

/** Messages between a worker and the primary process under WEB_CONCURRENCY > 1. */
const ASK = 'tally:metrics-request';
const ANSWER = 'tally:metrics-answer';
interface MetricsAnswer {
  type: typeof ANSWER;
  id: string;
  text?: string;
  error?: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Opt-in Prometheus metrics at GET /metrics (METRICS_TOKEN as a bearer token): requests by route
 * pattern, method and status with their durations, the event loop's lag, process memory and GC
 * (prom-client's default metrics), and the database's connections. prom-client is loaded only
 * when the token is set. Under node:cluster each worker keeps its own figures and the scrape,
 * whichever worker answers it, asks the primary to add up every worker's (aggregateInPrimary).
 */
export const metricsPlugin = fp<MetricsPluginOptions>(
  async (app, { token, databaseStats }) => {
    if (token === null) {
      app.decorate('countDelivery', () => undefined);
      // Registered anyway, so the web app's fallback never answers this path with a page.
      app.get('/metrics', { config: { public: true } }, async () => {
        throw new AppError(404, 'Not found');
      });
      return;
    }
    const expected = digest(`Bearer ${token}`);
    const { Registry, Histogram, Gauge, Counter, collectDefaultMetrics, AggregatorRegistry } =
      await import('prom-client');
    const registry: Registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'tally_' });

    const requests = new Histogram({
      name: 'tally_http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status, and how long they took',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
    app.addHook('onResponse', (request, reply, done) => {
      // The route's pattern (/api/todos/:id), never the raw URL: one series per route.
      requests.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? '(unmatched)',
          status_code: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
      done();
    });

    // Attempts rather than messages: a retried one counts once per failed try, then once more.
    const deliveries = new Counter({
      name: 'tally_notification_deliveries_total',
      help: 'Notification delivery attempts by channel kind and outcome (sent, failed, retried)',
      labelNames: ['channel', 'outcome'],
      registers: [registry],
    });
    app.decorate('countDelivery', (channel: string, outcome: string) =>
      deliveries.inc({ channel, outcome }),
    );

    if (databaseStats) {
      new Gauge({
        name: 'tally_db_pool_connections',
        help: 'PostgreSQL pool clients: total, idle, and requests waiting for one',
        labelNames: ['state'],
        registers: [registry],
        collect() {
          const { pool } = databaseStats();
          if (!pool) return;
          for (const state of ['total', 'idle', 'waiting'] as const)
            this.set({ state }, pool[state]);
        },
      });
      new Gauge({
        name: 'tally_db_statement_cache_entries',
        help: 'SQLite: prepared statements kept for reuse',
        registers: [registry],
        collect() {
          const { statementCacheEntries } = databaseStats();
          if (statementCacheEntries !== undefined) this.set(statementCacheEntries);
        },
      });
      new Gauge({
        name: 'tally_db_file_bytes',
        help: 'SQLite: size of the database file and of its write-ahead log',
        labelNames: ['file'],
        registers: [registry],
        collect() {
          const { fileBytes } = databaseStats();
          if (!fileBytes) return;
          this.set({ file: 'database' }, fileBytes.database);
          this.set({ file: 'wal' }, fileBytes.wal);
        },
      });
    }

    if (cluster.isWorker) {
      // Constructing one makes prom-client answer the primary's requests for this worker's
      // metrics (its listeners are added by the constructor only).
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries(registry);
    }

    app.get('/metrics', { config: { public: true } }, async (request, reply) => {
      const sent = digest(request.headers.authorization ?? '');
      if (!timingSafeEqual(sent, expected)) {
        throw new AppError(401, 'A valid metrics token is required', {
          'www-authenticate': 'Bearer realm="metrics"',
        });
      }
      reply.header('cache-control', 'no-store').type(registry.contentType);
      return cluster.isWorker ? askPrimary() : registry.metrics();
    });
  },
  { name: 'metrics' },
);

/** A worker's scrape: the primary gathers every worker's metrics and adds them up. */
function askPrimary(): Promise<string> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      reject(new AppError(503, 'The metrics of the other server processes did not arrive'));
    }, 6_000);
    function onMessage(message: unknown) {
      const answer = message as Partial<MetricsAnswer> | null;
      if (answer?.type !== ANSWER || answer.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      if (answer.text !== undefined) resolve(answer.text);
      else reject(new AppError(503, 'The metrics of the other server processes did not arrive'));
    }
    process.on('message', onMessage);
    process.send?.({ type: ASK, id });
  });
}

/**
 * In the primary process (WEB_CONCURRENCY > 1, METRICS_TOKEN set): answers a worker's request
 * with the sum of every worker's metrics, through prom-client's AggregatorRegistry (counters and
 * histograms added up; gauges by prom-client's rule for each, e.g. memory summed).
 */
export async function aggregateInPrimary(): Promise<void> {
  const { AggregatorRegistry } = await import('prom-client');
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    const ask = message as { type?: unknown; id?: unknown } | null;
    if (ask?.type !== ASK || typeof ask.id !== 'string') return;
    const id = ask.id;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id, text } satisfies MetricsAnswer),
      (error: unknown) =>
        worker.send({ type: ANSWER, id, error: String(error) } satisfies MetricsAnswer),
    );
  });
}
