import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test projects: `server` (API through inject and a real socket, on SQLite, or on PostgreSQL when
 * TEST_DATABASE_URL is set), `web` (components in jsdom) and `contract`.
 */
export default defineConfig({
  test: {
    projects: ['server', 'web', 'contract'],
    // One file per core, not Vitest's one core fewer: the API tests mostly wait (on sockets,
    // PostgreSQL, SMTP, child processes) and the web's jsdom files leave the core to them
    // (decisions 190 and 193).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
