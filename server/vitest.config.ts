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
    // One module graph per worker, not per file: importing the server's modules again for each of
    // its hundred files was a third of the run (decision 193). Every file builds its own app on
    // its own database, so no file reads another's module-level state.
    isolate: false,
  },
});
