import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's prefix for the PostgreSQL schemas its test files create (test/helpers.ts). */
    pgRun: string;
  }
}

/**
 * Vitest's global setup for the server project. Each test file works in a PostgreSQL schema of its
 * own, and the schemas are dropped here, once every file has finished, not as each file ends:
 * Kysely's migrator lists the tables of every schema (with has_schema_privilege on each), and a
 * schema dropped by one file in the middle of another file's listing failed that file's migration
 * ("schema test_… does not exist").
 */
export default function setup(project: TestProject) {
  const run = randomBytes(4).toString('hex');
  project.provide('pgRun', run);
  return async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ name: string }>(
        'select nspname as name from pg_namespace where nspname like $1',
        [`test\\_${run}\\_%`],
      );
      for (const { name } of rows) await admin.query(`drop schema "${name}" cascade`);
    } finally {
      await admin.end();
    }
  };
}
