import { availableParallelism } from 'node:os';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@tally/source'] },
  ssr: { resolve: { conditions: ['@tally/source'] } },
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'bin/**/*.test.mjs'],
    globalSetup: ['src/test/pg-schemas.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The API tests mostly wait (on sockets, PostgreSQL, SMTP, child processes), so one file per
    // core runs beside another instead of Vitest's default of one core fewer (decision 190).
    maxWorkers: Math.max(2, availableParallelism()),
    // Vitest runs projects with different worker counts as groups, one after the other: the
    // server's after the web's and the contract's.
    sequence: { groupOrder: 1 },
  },
});
