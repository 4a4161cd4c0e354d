import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
  }
}

export interface DatabasePluginOptions {
  db: Kysely<Database>;
  /** Destroy the connection when the app closes (false when the caller owns it, as tests do). */
  closeOnShutdown: boolean;
}

export const databasePlugin = fp<DatabasePluginOptions>(
  async (app, { db, closeOnShutdown }) => {
    app.decorate('db', db);
    if (closeOnShutdown) app.addHook('onClose', async () => db.destroy());
  },
  { name: 'database' },
);
