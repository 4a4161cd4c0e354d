import cluster from 'node:cluster';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { type Config, loadConfig } from './config.js';
import { connect } from './db/connection.js';
import { migrateWithBackup } from './db/migrate.js';
import { gracefulDrain } from './drain.js';
import { resolveJwtSecret, resolveVapidKeys } from './secrets.js';
import { aggregateInPrimary } from './plugins/metrics.js';
import { releaseStartMemory } from './release-start-memory.js';

/** How long after listening the start's memory is given back (releaseStartMemory). */
const START_MEMORY_DELAY_MS = 200;

/**
 * WEB_CONCURRENCY > 1 (PostgreSQL only, config.ts refuses it on SQLite): this primary process
 * migrates once, settles the JWT secret, then forks that many workers sharing the port
 * (node:cluster). A worker that dies after it was serving is replaced; one that dies before it
 * ever listened stops the whole server, so a bad start does not loop. SIGTERM/SIGINT are passed
 * on and each worker finishes its in-flight requests.
 */
async function primary(config: Config) {
  const database = connect(config);
  await migrateWithBackup(database, config, console.info);
  await database.db.destroy();
  resolveJwtSecret(config);
  // Made here once, so the workers all read the same pair.
  resolveVapidKeys(config);
  if (config.metricsToken) await aggregateInPrimary();

  let stopping = false;
  const serving = new WeakSet<object>();
  const fork = () => {
    const worker = cluster.fork();
    worker.once('listening', () => serving.add(worker));
  };
  cluster.on('exit', (worker, code, signal) => {
    const alive = Object.keys(cluster.workers ?? {}).length;
    if (stopping) {
      if (alive === 0) process.exit(0);
      return;
    }
    if (!serving.has(worker)) {
      console.error(`A server process failed to start (${signal ?? code}); stopping`);
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      process.exitCode = 1;
      if (alive === 0) process.exit(1);
      return;
    }
    console.error(`Server process ${worker.process.pid} exited (${signal ?? code}); replacing it`);
    fork();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    });
  }
  for (let i = 0; i < config.webConcurrency; i++) fork();
  console.info(`Tally: ${config.webConcurrency} server processes on port ${config.port}`);
}

/** Reads configuration, migrates, listens, and shuts down gracefully on SIGTERM/SIGINT. */
async function main() {
  const config = loadConfig();
  if (config.webConcurrency > 1 && cluster.isPrimary) return primary(config);
  const database = connect(config);
  // Under node:cluster the primary has migrated already.
  if (cluster.isPrimary) await migrateWithBackup(database, config, console.info);
  const app = await buildApp({
    config,
    database,
    jwtSecret: resolveJwtSecret(config),
    vapidKeys: resolveVapidKeys(config),
    backgroundJobs: true,
    // buildApp adds the redaction of secrets (shared/logging.ts).
    logger: { level: config.logLevel },
  });

  const shutdown = gracefulDrain(app);
  shutdown.track();
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'closing after an error');
    else app.log.info({ signal }, 'closing: finishing in-flight requests');
    if (!err) await shutdown.drain();
    await app.close();
  });

  await app.listen({ port: config.port, host: config.host });
  // A moment after listening, so the first requests (a health check, a load balancer's probe)
  // are not kept waiting behind its full collections (docs/performance.md, Footprint).
  setTimeout(releaseStartMemory, START_MEMORY_DELAY_MS).unref();
  app.log.info(
    `Tally is serving on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port} (${database.dialect}: ${database.location})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
