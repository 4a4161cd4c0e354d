import { defineConfig } from 'vitest/config';

/**
 * Test projects: `server` (API through inject and a real socket, on SQLite, or on PostgreSQL when
 * TEST_DATABASE_URL is set), `web` (components in jsdom) and `contract`.
 */
export default defineConfig({
  test: {
    projects: ['server', 'web', 'contract'],
  },
});
