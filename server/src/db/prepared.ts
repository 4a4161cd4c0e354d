import type { Compilable, Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Compiles a query once and runs it with new parameter values (in the order the query uses
 * them). Kysely otherwise rebuilds and recompiles the query tree on every call, which the
 * benchmark's profile showed on the hottest paths (the user lookup of every request, the lists);
 * docs/decisions/038-per-request-work.md. Tally uses no Kysely plugins, so the compiled
 * SQL is exactly what a fresh build would run.
 */
export function precompile<Row>(
  db: Kysely<Database>,
  query: Compilable<Row>,
): (...parameters: unknown[]) => Promise<Row[]> {
  const compiled = query.compile();
  return async (...parameters) => (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
}
