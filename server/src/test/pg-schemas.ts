import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's prefix for the PostgreSQL schemas its test files create (test/helpers.ts). */
    pgRun: string;
  }
}

/** One statement on its own connection (databases and schemas are made and dropped so). */
export async function adminQuery(url: string, sql: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * Vitest's global setup for the server project. With TEST_DATABASE_URL, the run works in a
 * PostgreSQL database of its own, made here and dropped once every file has finished; each test
 * file works in a schema of its own inside it (test/helpers.ts). Kysely's migrator lists the
 * tables of every schema of its database (with has_schema_privilege on each), so a schema dropped
 * meanwhile by anyone else fails a migration ("schema test_… does not exist"): two runs at once
 * (a developer's and CI's, or two worktrees') must not share a database, within a run no
 * schema is dropped before the end, and a test that drops or renames a table works in a database
 * of its own (`createTestDatabase({ ownDatabase: true })`).
 */
export default async function setup(project: TestProject) {
  const run = randomBytes(4).toString('hex');
  project.provide('pgRun', run);
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const name = `tally_test_${run}`;
  await adminQuery(url, `create database ${name}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  // Read by the test files (test/helpers.ts) in the workers, which start after this setup.
  process.env.TEST_DATABASE_URL = own.toString();
  return async () => {
    process.env.TEST_DATABASE_URL = url;
    await adminQuery(url, `drop database if exists ${name} with (force)`);
  };
}
