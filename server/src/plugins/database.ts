import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dialect: Dialect;
  }
}

export interface DatabasePluginOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Destroy the connection when the app closes (false when the caller owns it, as tests do). */
  closeOnShutdown: boolean;
}

export const databasePlugin = fp<DatabasePluginOptions>(
  async (app, { db, dialect, closeOnShutdown }) => {
    app.decorate('db', db);
    app.decorate('dialect', dialect);
    if (closeOnShutdown) app.addHook('onClose', async () => db.destroy());
  },
  { name: 'database' },
);
