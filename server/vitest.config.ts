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
  },
});
