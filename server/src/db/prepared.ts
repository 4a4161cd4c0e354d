import type { CompiledQuery, QueryExecutorProvider } from 'kysely';
import type { Db } from './schema.js';

/**
 * Stands for a call's values while its query is built: `p('userId')` is the value each call
 * passes as `userId`. For a list it is a list of the same length, one stand-in per element.
 */
export type Placeholders<P> = <K extends keyof P & string>(name: K) => P[K];

/** What a prepared query's build returns: a query builder or an sql`` template. */
interface Query<Row> {
  compile(executorProvider: QueryExecutorProvider): CompiledQuery<Row>;
}

type Values = Record<string, unknown>;

/** A stand-in for one value of the call: where to take it from. */
class Placeholder {
  constructor(
    readonly name: string,
    readonly take: (values: Values) => unknown,
  ) {}
}

/**
 * A compiled query that may carry the name of a server-side prepared statement: on PostgreSQL,
 * outside a transaction, it is parsed and planned once per connection instead of on every call
 * (db/pool-query-dialect.ts); SQLite ignores it (its statements are cached by text, decision 033).
 */
export interface NamedQuery extends CompiledQuery {
  readonly name?: string;
  /** The query's row from its values in the select's order (db/pool-query-dialect.ts). */
  readonly rowOf?: RowOf<unknown>;
}

/**
 * Builds a query's row, the object its select describes, from its values in the select's order,
 * with one object literal. node-postgres builds each row by copying a template and setting its
 * columns by name, code shared by every query of the process; after a server's start has run
 * dozens of differently shaped queries that code no longer specialises, and the list's 200 rows
 * cost about three times what they cost a process with three queries (docs/performance.md, the
 * list against a raw reference). A literal gives every row of the query one shape, made once.
 */
export type RowOf<Row> = (values: readonly unknown[]) => Row;

/** Names of kept statements, unique within the process: `tally_1`, `tally_2`, … */
let statementsNamed = 0;

interface Statement {
  compiled: NamedQuery;
  /** For each parameter of the compiled query: its value on a given call. */
  parameters: ((values: Values) => unknown)[];
}

/**
 * A list makes the SQL as long as the list, so each length is its own statement. Lists up to a
 * month of days (the statistics screen's ranges, a change's one to five events) are kept; a
 * longer one (a range of up to 366 days, any length a user picks) is compiled for its call only,
 * so no request can make the cache grow.
 */
const LONGEST_KEPT_LIST = 31;

/**
 * A query built and compiled once per dialect (and list length), then run with each call's
 * values. Kysely otherwise rebuilds, freezes and compiles the query tree on every call, which the
 * benchmark's profiles showed on the hottest paths (docs/decisions/042-prepared-queries.md).
 * `build` gets named placeholders instead of values and may only pass them into the query as
 * values (no arithmetic or branching on them). Tally uses no Kysely plugins, so the compiled SQL
 * is exactly what a fresh build would run. Works on the database or inside a transaction.
 */
export function preparedQuery<P extends object, Row>(
  build: (db: Db, p: Placeholders<P>) => Query<Row>,
  options: { rowOf?: RowOf<Row> } = {},
): (db: Db, values: P) => Promise<Row[]> {
  const byDialect = new Map<object, Map<string, Statement>>();

  function prepare(db: Db, values: Values): Statement {
    const placeholders = new Set<Placeholder>();
    const placeholder = (name: string, take: (call: Values) => unknown) => {
      const made = new Placeholder(name, take);
      placeholders.add(made);
      return made;
    };
    const p = (name: string) => {
      const value = values[name];
      if (!Array.isArray(value)) return placeholder(name, (call) => call[name]);
      return value.map((_, i) => placeholder(name, (call) => (call[name] as unknown[])[i]));
    };
    const compiled: NamedQuery = {
      ...build(db, p as Placeholders<P>).compile(db),
      rowOf: options.rowOf,
    };
    const parameters = compiled.parameters.map((parameter) => {
      if (!(parameter instanceof Placeholder)) return () => parameter;
      placeholders.delete(parameter);
      return parameter.take;
    });
    // One that is not a parameter went into the SQL text or a condition: the query would be wrong.
    const [misused] = placeholders;
    if (misused) throw new Error(`p('${misused.name}') may only be used as a value of the query`);
    return { compiled, parameters };
  }

  return async (db, values) => {
    const call = values as Values;
    let key = '';
    let kept = true;
    for (const name in call) {
      const value = call[name];
      if (!Array.isArray(value)) continue;
      key += `${name}:${value.length};`;
      if (value.length > LONGEST_KEPT_LIST) kept = false;
    }
    // The adapter's class names the dialect (a transaction shares its database's adapter); the
    // executor is what Kysely hands an sql`` template to compile with.
    const dialect = db.getExecutor().adapter.constructor;
    let statements = byDialect.get(dialect);
    if (!statements) byDialect.set(dialect, (statements = new Map()));
    let statement = statements.get(key);
    if (!statement) {
      statement = prepare(db, call);
      // Only a kept statement gets a name: PostgreSQL keeps a named one for the connection's life.
      if (kept) {
        statement.compiled = { ...statement.compiled, name: `tally_${++statementsNamed}` };
        statements.set(key, statement);
      }
    }
    const { compiled, parameters } = statement;
    const result = await db.executeQuery<Row>({
      ...compiled,
      parameters: parameters.map((take) => take(call)),
    } as CompiledQuery<Row>);
    return result.rows;
  };
}
