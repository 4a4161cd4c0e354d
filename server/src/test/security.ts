import type { RouteOptions } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Shared by the security suites (src/security/*.test.ts): the route table as Fastify builds it,
 * snapshots of one user's rows, and the database invariants every request must keep.
 */

export interface RouteEntry {
  method: string;
  url: string;
  public: boolean;
  /**
   * An answer that stays open (GET /api/events): inject() would wait for its end forever, so
   * the sweeps leave it to its own tests (server/src/live/live.test.ts).
   */
  stream: boolean;
  /** JSON schemas of the request parts, as the route declares them. */
  body?: JsonSchema;
  querystring?: JsonSchema;
  params?: JsonSchema;
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  anyOf?: JsonSchema[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

/** Collects every route through the app's onRoute option; read `entries()` after ready(). */
export function routeCollector() {
  const routes: RouteOptions[] = [];
  return {
    onRoute: (route: RouteOptions) => void routes.push(route),
    /** One entry per route and method, in registration order; config is read at call time. */
    entries(): RouteEntry[] {
      return routes.flatMap((route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        const schema = (route.schema ?? {}) as Record<string, JsonSchema | undefined>;
        const config = route.config as { public?: boolean; stream?: boolean } | undefined;
        return methods.map((method) => ({
          method: String(method).toUpperCase(),
          url: route.url,
          public: config?.public === true,
          stream: config?.stream === true,
          ...(schema.body ? { body: schema.body } : {}),
          ...(schema.querystring ? { querystring: schema.querystring } : {}),
          ...(schema.params ? { params: schema.params } : {}),
        }));
      });
    },
  };
}

/**
 * Every table with its columns, read from the database's catalogue, so a table added later is
 * covered without editing this file.
 */
async function tables(db: Kysely<Database>): Promise<{ name: string; columns: string[] }[]> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema()`
    .execute(db)
    .catch(async () =>
      sql<{ table_name: string; column_name: string }>`
        select m.name as table_name, p.name as column_name
        from sqlite_master m join pragma_table_info(m.name) p
        where m.type = 'table'`.execute(db),
    );
  const byTable = new Map<string, string[]>();
  for (const row of rows) {
    if (row.table_name.startsWith('sqlite_') || row.table_name.startsWith('kysely_')) continue;
    byTable.set(row.table_name, [...(byTable.get(row.table_name) ?? []), row.column_name]);
  }
  return [...byTable]
    .map(([name, columns]) => ({ name, columns }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The column that names a row's owner: users.id, else user_id. */
const ownerColumn = (table: { name: string; columns: string[] }) =>
  table.name === 'users' ? 'id' : table.columns.includes('user_id') ? 'user_id' : null;

/** Every row a user owns, in every table, as canonical JSON (compares byte for byte). */
export async function snapshotUser(db: Kysely<Database>, userId: number): Promise<string> {
  const out: Record<string, string[]> = {};
  for (const table of await tables(db)) {
    const owner = ownerColumn(table);
    if (!owner) continue;
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(
      table.name,
    )} where ${sql.ref(owner)} = ${userId}`.execute(db);
    out[table.name] = rows
      .map((row) =>
        JSON.stringify(
          Object.fromEntries(
            Object.keys(row)
              .sort()
              .map((k) => [k, row[k]]),
          ),
        ),
      )
      .sort();
  }
  return JSON.stringify(out);
}

/** Every id of every table a user owns (the ids an attacker would try). */
export async function idsOfUser(db: Kysely<Database>, userId: number): Promise<number[]> {
  const ids = new Set<number>();
  for (const table of await tables(db)) {
    const owner = ownerColumn(table);
    if (!owner || !table.columns.includes('id')) continue;
    const { rows } = await sql<{ id: number }>`select id from ${sql.table(
      table.name,
    )} where ${sql.ref(owner)} = ${userId}`.execute(db);
    for (const row of rows) ids.add(Number(row.id));
  }
  return [...ids].sort((a, b) => a - b);
}

/**
 * Rows that break the data model: a todo in another user's group or in a missing group, rows of
 * missing users, event types outside the catalogue. Empty when the database is sound.
 */
export async function invariantViolations(db: Kysely<Database>): Promise<string[]> {
  const checks: [string, ReturnType<typeof sql<{ n: number | string }>>][] = [
    [
      "todos in another user's or a missing group",
      sql`select count(*) as n from todos t left join todo_groups g on g.id = t.group_id
          where t.group_id is not null and (g.id is null or g.user_id <> t.user_id)`,
    ],
    [
      'orphan todos',
      sql`select count(*) as n from todos t left join users u on u.id = t.user_id where u.id is null`,
    ],
    [
      'orphan groups',
      sql`select count(*) as n from todo_groups g left join users u on u.id = g.user_id where u.id is null`,
    ],
    [
      'orphan refresh tokens',
      sql`select count(*) as n from refresh_tokens r left join users u on u.id = r.user_id where u.id is null`,
    ],
    [
      'orphan events',
      sql`select count(*) as n from statistic_events e left join users u on u.id = e.user_id where u.id is null`,
    ],
    [
      'events of unknown types',
      sql`select count(*) as n from statistic_events where type not in ('todosCreated',
          'todosCompleted', 'groupsCreated', 'logins', 'todosDeleted', 'googleAuths',
          'registrations', 'tokensGenerated', 'refreshTokensCreated', 'todosUpdated',
          'groupsUpdated', 'groupsDeleted')`,
    ],
    [
      'blank or untrimmed titles and names',
      sql`select count(*) as n from todos where title = '' or title <> trim(title)`,
    ],
  ];
  const problems: string[] = [];
  for (const [name, query] of checks) {
    const { rows } = await query.execute(db);
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) problems.push(`${name}: ${n}`);
  }
  return problems;
}

/** Row counts of every table: a rejected request must leave them all as they were. */
export async function tableCounts(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<Record<string, number | string>>`select
      (select count(*) from users) as users,
      (select count(*) from todo_groups) as groups,
      (select count(*) from todos) as todos,
      (select count(*) from statistic_events) as events,
      (select count(*) from refresh_tokens) as tokens`.execute(db);
  const row = rows[0] ?? {};
  return Object.entries(row)
    .map(([k, v]) => `${k}=${Number(v)}`)
    .join(' ');
}

/** Fills `:name` path parameters. */
export function fillPath(url: string, params: Record<string, string | number>): string {
  return url.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(String(params[name] ?? '')),
  );
}

/** True when a route takes path parameters (ignoring static wildcards). */
export const hasParams = (url: string) => /:\w+/.test(url);
