import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { loadConfig, resolveJwtSecret } from './config.js';
import { connect } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';

/** Reads configuration, migrates, listens, and shuts down gracefully on SIGTERM/SIGINT. */
async function main() {
  const config = loadConfig();
  const database = connect(config);
  await migrateToLatest(database.db, database.dialect);
  const app = await buildApp({
    config,
    database,
    jwtSecret: resolveJwtSecret(config),
    logger: {
      level: config.logLevel,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
    },
  });

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'closing after an error');
    else app.log.info({ signal }, 'closing: finishing in-flight requests');
    await app.close();
  });

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Tally is serving on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port} (${database.dialect}: ${database.location})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
