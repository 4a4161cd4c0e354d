import { type SelectQueryBuilder, sql } from 'kysely';
import { dialectOf } from '../db/dialect-of.js';
import { preparedQuery, type Placeholders, type RowOf } from '../db/prepared.js';
import type { Database, Db } from '../db/schema.js';
import { byTagName, tagsByTodo } from '../shared/tags.js';
import { nextVersion } from '../shared/versions.js';
import {
  COLUMNS,
  TODOS_COLUMNS,
  WRITTEN,
  type TodoColumns,
  type TodoFilters,
  type TodoWrite,
} from './rows.js';

/**
 * The todo queries of the hot paths, each named for what it reads or writes. Those that are
 * prepared (db/prepared.ts: built and compiled once, a named statement on PostgreSQL) are so
 * because the benchmark measured them (docs/decisions/091-data-access-modules.md); the service
 * calls them like functions and writes everything else as plain Kysely.
 */

type TodoSelect = SelectQueryBuilder<Database, 'todos', TodoColumns>;

/** A user's todos as the list answers them, newest first. */
export const newestFirst = (db: Db, userId: number): TodoSelect =>
  db
    .selectFrom('todos')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');

/** Rows after a page's last one, newest first: (created, id) below the cursor's. */
export const olderThan = <Q extends TodoSelect>(select: Q, created: number, id: number): Q =>
  select.where((eb) =>
    eb.or([
      eb('created_at', '<', created),
      eb.and([eb('created_at', '=', created), eb('id', '<', id)]),
    ]),
  ) as Q;

/** Every todo of the user: the list without parameters (SQLite's way, see tag-links.ts). */
const todosOfUser = preparedQuery((db, p: Placeholders<{ userId: number }>) =>
  newestFirst(db, p('userId')),
);

/** The links of every tag the user has: the whole list's tags in one read. */
const tagLinksOfUser = preparedQuery((db, p: Placeholders<{ userId: number }>) =>
  db
    .selectFrom('tags')
    .innerJoin('todo_tags', 'todo_tags.tag_id', 'tags.id')
    .select(['todo_tags.todo_id', 'tags.name'])
    .where('tags.user_id', '=', p('userId')),
);

type TodoWithTagNames = TodoColumns & { tag_names: string | null };

/** A row of todosWithTagNamesOfUser from its values: COLUMNS' order, then the tags' names. */
export const todoWithTagNamesOf: RowOf<TodoWithTagNames> = (v) =>
  ({
    id: v[0],
    title: v[1],
    description: v[2],
    group_id: v[3],
    completed: v[4],
    created_at: v[5],
    due_date: v[6],
    due_time: v[7],
    repeat: v[8],
    reminder_minutes: v[9],
    priority: v[10],
    parent_id: v[11],
    start_date: v[12],
    duration_minutes: v[13],
    position: v[14],
    custom_repeat: v[15],
    version: v[16],
    tag_names: v[17],
  }) as TodoWithTagNames;

/**
 * Every todo of the user with its tags' names in one text, a space between them (a name has
 * none, shared/tags.ts; null for none): the list and its tags in one query (PostgreSQL's way).
 * Its rows are built by todoWithTagNamesOf (db/prepared.ts, RowOf, says why).
 */
const todosWithTagNamesOfUser = preparedQuery(
  (db, p: Placeholders<{ userId: number }>) =>
    db
      .selectFrom('todos')
      .leftJoin(
        // Grouped before the join, so PostgreSQL groups the narrow links, not the todos' rows.
        (eb) =>
          eb
            .selectFrom('todo_tags')
            .innerJoin('tags', 'tags.id', 'todo_tags.tag_id')
            .select([
              'todo_tags.todo_id',
              sql<string>`string_agg(${sql.ref('tags.name')}, ' ')`.as('names'),
            ])
            .where('tags.user_id', '=', p('userId'))
            .groupBy('todo_tags.todo_id')
            .as('tag_names'),
        (join) => join.onRef('tag_names.todo_id', '=', 'todos.id'),
      )
      .select(TODOS_COLUMNS)
      .select('tag_names.names as tag_names')
      .where('todos.user_id', '=', p('userId'))
      .orderBy('todos.created_at', 'desc')
      .orderBy('todos.id', 'desc'),
  { rowOf: todoWithTagNamesOf },
);

/** The first page of the list (the web app's /todos loads it on every visit). */
export const firstPageOfUser = preparedQuery(
  (db, p: Placeholders<{ userId: number; limit: number }>) =>
    newestFirst(db, p('userId')).limit(p('limit')),
);

/** A page of the list after a cursor. */
export const pageOfUserAfter = preparedQuery(
  (db, p: Placeholders<{ userId: number; limit: number; created: number; id: number }>) =>
    olderThan(newestFirst(db, p('userId')), p('created'), p('id')).limit(p('limit')),
);

/** The days a view spans: Today up to `today`, Upcoming `today`-`to`, Overdue before `clockTime`. */
export type ViewBounds =
  | { view: 'today'; today: string }
  | { view: 'upcoming'; today: string; to: string }
  | { view: 'overdue'; today: string; clockTime: string };

/** Soonest first, then by time (a todo without one first), then oldest. */
const soonestFirst = (select: TodoSelect) =>
  select
    .orderBy('due_date')
    .orderBy((eb) => eb.fn.coalesce('due_time', eb.val('')))
    .orderBy('id');

/**
 * The user's open todos in a view (docs/product.md, Today, Upcoming and Overdue), soonest first,
 * then by time (a todo without one first), then oldest. The one definition of the views: the
 * prepared Today and Upcoming below and the paged or filtered variants are built from it.
 */
export function openInView(db: Db, userId: number, bounds: ViewBounds): TodoSelect {
  let select = db
    .selectFrom('todos')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('completed', '=', 0)
    .where('due_date', 'is not', null);
  const { today } = bounds;
  if (bounds.view === 'overdue') {
    const { clockTime } = bounds;
    return soonestFirst(
      select.where((eb) =>
        eb.or([
          eb('due_date', '<', today),
          eb.and([eb('due_date', '=', today), eb('due_time', '<', clockTime)]),
        ]),
      ),
    );
  }
  select =
    bounds.view === 'today'
      ? select.where('due_date', '<=', today)
      : select.where('due_date', '>=', today).where('due_date', '<=', bounds.to);
  // A todo hidden until a later day stays out of both (docs/product.md, Start dates).
  return soonestFirst(
    select.where((eb) => eb.or([eb('start_date', 'is', null), eb('start_date', '<=', today)])),
  );
}

/** Today, unpaged and unfiltered: what the web app's Today screen loads (decision 049). */
export const dueTodayOrBefore = preparedQuery(
  (db, p: Placeholders<{ userId: number; today: string }>) =>
    openInView(db, p('userId'), { view: 'today', today: p('today') }),
);

/** Upcoming, unpaged and unfiltered (decision 049). */
export const dueBetween = preparedQuery(
  (db, p: Placeholders<{ userId: number; today: string; to: string }>) =>
    openInView(db, p('userId'), { view: 'upcoming', today: p('today'), to: p('to') }),
);

/** How many todos the user has per group (null: ungrouped), for the tab counts. */
export const countsOfUser = preparedQuery((db, p: Placeholders<{ userId: number }>) =>
  db
    .selectFrom('todos')
    .select((eb) => ['group_id', eb.fn.countAll<number | string>().as('count')])
    .where('user_id', '=', p('userId'))
    .groupBy('group_id'),
);

/** The group, when it is the user's. */
export const groupOfUser = preparedQuery((db, p: Placeholders<{ id: number; userId: number }>) =>
  db
    .selectFrom('todo_groups')
    .select('id')
    .where('id', '=', p('id'))
    .where('user_id', '=', p('userId')),
);

/** The written columns, each the value of the call's field of the same name. */
const written = (p: Placeholders<TodoWrite>) =>
  Object.fromEntries(WRITTEN.map((column) => [column, p(column)])) as TodoWrite;

/** A new todo of the user, open, created and updated at `now`. */
export const insertTodo = preparedQuery(
  (db, p: Placeholders<TodoWrite & { user_id: number; now: number }>) =>
    db
      .insertInto('todos')
      .values({
        ...written(p),
        user_id: p('user_id'),
        completed: 0,
        created_at: p('now'),
        updated_at: p('now'),
      })
      .returning(COLUMNS),
);

/** One todo of the user as it is now. */
export const todoOfUser = preparedQuery((db, p: Placeholders<{ id: number; userId: number }>) =>
  db
    .selectFrom('todos')
    .select(COLUMNS)
    .where('id', '=', p('id'))
    .where('user_id', '=', p('userId')),
);

/**
 * A read that a write of the same rows follows in its transaction (an update merges into it, a
 * version is checked against it). On PostgreSQL it locks the rows until the transaction ends, so
 * a concurrent write waits and then starts from this one's result: two writes never both start
 * from one version. SQLite runs one write transaction at a time and needs no lock.
 */
export const forWrite = <Q extends SelectQueryBuilder<Database, 'todos', object>>(
  db: Db,
  select: Q,
): Q => (dialectOf(db) === 'postgres' ? (select.forUpdate() as Q) : select);

/** One todo of the user as it is now, for the write that follows (what an update merges into). */
export const todoToWrite = preparedQuery((db, p: Placeholders<{ id: number; userId: number }>) =>
  forWrite(
    db,
    db
      .selectFrom('todos')
      .select(COLUMNS)
      .where('id', '=', p('id'))
      .where('user_id', '=', p('userId')),
  ),
);

/** Writes every written column of one todo of the user, its completion, `updated_at` and version. */
export const updateTodo = preparedQuery(
  (
    db,
    p: Placeholders<TodoWrite & { id: number; user_id: number; completed: number; now: number }>,
  ) =>
    db
      .updateTable('todos')
      .set({
        ...written(p),
        completed: p('completed'),
        updated_at: p('now'),
        version: nextVersion,
      })
      .where('id', '=', p('id'))
      .where('user_id', '=', p('user_id'))
      .returning(COLUMNS),
);

/**
 * Every todo of the user, newest first, and the tags of each by todo id (the list without
 * parameters, docs/decisions/091-data-access-modules.md). PostgreSQL answers both in one query,
 * saving the driver a round trip and a result; on SQLite a query is a call in this process,
 * where two plain reads cost less than the grouped join.
 */
export async function todosAndTagsOfUser(
  db: Db,
  userId: number,
): Promise<{ rows: TodoColumns[]; tags: Map<number, string[]> }> {
  if (dialectOf(db) === 'sqlite') {
    const rows = await todosOfUser(db, { userId });
    return {
      rows,
      tags: rows.length === 0 ? new Map() : tagsByTodo(await tagLinksOfUser(db, { userId })),
    };
  }
  const rows = await todosWithTagNamesOfUser(db, { userId });
  const tags = new Map<number, string[]>();
  for (const row of rows) {
    if (row.tag_names !== null) tags.set(row.id, row.tag_names.split(' ').sort(byTagName));
  }
  return { rows, tags };
}

const SEARCH_COLUMNS = sql.raw(COLUMNS.map((column) => `todos."${column}"`).join(', '));

/** The list's filters (?tag=, ?priority=) as a condition of the search's query. */
function filterSql(userId: number, filters: TodoFilters) {
  const priority =
    filters.priority === undefined ? sql`` : sql`and todos.priority = ${filters.priority}`;
  const tag =
    filters.tag === undefined
      ? sql``
      : sql`and todos.id in (select todo_tags.todo_id from todo_tags
          join tags on tags.id = todo_tags.tag_id
          where tags.user_id = ${userId} and tags.name_lower = ${filters.tag.toLowerCase()})`;
  return sql`${priority} ${tag}`;
}

/**
 * The query in each engine's syntax, built only from the words of q (letters and digits), so no
 * operator, quote or parenthesis of the user's text reaches the engine: every word must occur,
 * the last one may be the start of a word.
 */
const ftsQuery = (words: string[]) =>
  words.map((word, i) => `"${word}"${i === words.length - 1 ? '*' : ''}`).join(' ');
const tsQuery = (words: string[]) =>
  words.map((word, i) => `${word}${i === words.length - 1 ? ':*' : ''}`).join(' & ');

/**
 * The search's matches in each engine's full-text index (FTS5 on SQLite, a tsvector on
 * PostgreSQL), best first, then newest; within `window` when given.
 */
export async function searchMatches(
  db: Db,
  userId: number,
  words: string[],
  window: { limit: number; offset: number } | null,
  filters: TodoFilters,
): Promise<TodoColumns[]> {
  const range = window ? sql`limit ${window.limit} offset ${window.offset}` : sql``;
  const query =
    dialectOf(db) === 'sqlite'
      ? sql<TodoColumns>`select ${SEARCH_COLUMNS} from todos_fts
          join todos on todos.id = todos_fts.rowid
          where todos_fts match ${ftsQuery(words)} and todos.user_id = ${userId}
            ${filterSql(userId, filters)}
          order by bm25(todos_fts), todos.created_at desc, todos.id desc ${range}`
      : sql<TodoColumns>`select ${SEARCH_COLUMNS} from todos, to_tsquery('simple', ${tsQuery(words)}) q
          where todos.user_id = ${userId} and to_tsvector('simple', todos.search_text) @@ q
            ${filterSql(userId, filters)}
          order by ts_rank(to_tsvector('simple', todos.search_text), q) desc,
            todos.created_at desc, todos.id desc ${range}`;
  const { rows } = await query.execute(db);
  return rows;
}
