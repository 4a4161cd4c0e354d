import type { CompiledQuery, Compilable, Kysely, QueryResult, Transaction } from 'kysely';
import type { Database } from './schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Compiles a query once and runs it with new parameter values (in the order the query uses
 * them). Kysely otherwise rebuilds, freezes and compiles the query tree on every call, which the
 * benchmark's profiles showed on the hottest paths (docs/decisions/038-per-request-work.md).
 * Tally uses no Kysely plugins, so the compiled SQL is exactly what a fresh build would run.
 */
export function precompile<Row>(
  db: Kysely<Database>,
  query: Compilable<Row>,
): (...parameters: unknown[]) => Promise<Row[]> {
  const compiled = query.compile();
  return async (...parameters) => (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
}

class Slot {
  constructor(readonly index: number) {}
}

interface Shape {
  compiled: CompiledQuery;
  /** For each parameter: the argument it takes, or null for a constant of the query. */
  positions: (number | null)[];
}

/**
 * A query shape compiled once per dialect: `build` is called a single time with placeholders
 * instead of its arguments, and every parameter of the compiled query that is a placeholder is
 * remembered by position, so later calls only put the new arguments in place. `build` must use
 * its arguments as values only (no arithmetic or branching on them). Runs on any executor, so it
 * works inside transactions.
 */
export function compiledShape<Args extends unknown[], Row = unknown>(
  build: (db: Executor, ...args: Args) => Compilable<Row>,
): (db: Executor, ...args: Args) => Promise<QueryResult<Row>> {
  const byDialect = new Map<string, Shape>();
  return (db, ...args) => {
    const dialect = db.getExecutor().adapter.constructor.name;
    let shape = byDialect.get(dialect);
    if (!shape) {
      const slots = args.map((_, i) => new Slot(i)) as Args;
      const compiled = build(db, ...slots).compile();
      shape = {
        compiled,
        positions: compiled.parameters.map((value) => (value instanceof Slot ? value.index : null)),
      };
      byDialect.set(dialect, shape);
    }
    const { compiled, positions } = shape;
    return db.executeQuery<Row>({
      ...compiled,
      parameters: positions.map((index, i) =>
        index === null ? compiled.parameters[i] : args[index],
      ),
    } as CompiledQuery<Row>);
  };
}
