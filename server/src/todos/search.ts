import { sql } from 'kysely';
import { dialectOf } from '../db/dialect-of.js';
import type { Db } from '../db/schema.js';
import { COLUMNS as ROW_COLUMNS, type TodoColumns, type TodoFilters } from './rows.js';
import { badRequest } from '../shared/errors.js';
import { searchWords } from '@tally/contract/search-words';

type Row = TodoColumns;

const COLUMNS = sql.raw(ROW_COLUMNS.map((column) => `todos."${column}"`).join(', '));

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

/** Search results are ranked, not ordered by a key, so their cursor is a position. */
const encodeCursor = (offset: number) => Buffer.from(`s${offset}`).toString('base64url');
function decodeCursor(cursor: string): number | null {
  const match = /^s(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? Number(match[1]) : null;
}

/** Few enough words for any engine, more than a 200-character query can hold of real words. */
const MAX_WORDS = 32;

/**
 * The caller's todos whose title or description hold every word of q, best first (then newest).
 * Paged when `limit` is given, from the position in `cursor`.
 */
export async function searchTodos(
  db: Db,
  userId: number,
  q: string,
  page: { limit: number; cursor: string | undefined } | null,
  filters: TodoFilters = {},
): Promise<{ rows: Row[]; next: string | null }> {
  let offset = 0;
  if (page?.cursor !== undefined) {
    const decoded = decodeCursor(page.cursor);
    if (decoded === null) throw badRequest('cursor is not a cursor this server gave out');
    offset = decoded;
  }
  const words = searchWords(q);
  if (words.length > MAX_WORDS) throw badRequest(`q must have at most ${MAX_WORDS} words`);
  if (words.length === 0) return { rows: [], next: null };
  const window = page ? sql`limit ${page.limit + 1} offset ${offset}` : sql``;
  const query =
    dialectOf(db) === 'sqlite'
      ? sql<Row>`select ${COLUMNS} from todos_fts
          join todos on todos.id = todos_fts.rowid
          where todos_fts match ${ftsQuery(words)} and todos.user_id = ${userId}
            ${filterSql(userId, filters)}
          order by bm25(todos_fts), todos.created_at desc, todos.id desc ${window}`
      : sql<Row>`select ${COLUMNS} from todos, to_tsquery('simple', ${tsQuery(words)}) q
          where todos.user_id = ${userId} and to_tsvector('simple', todos.search_text) @@ q
            ${filterSql(userId, filters)}
          order by ts_rank(to_tsvector('simple', todos.search_text), q) desc,
            todos.created_at desc, todos.id desc ${window}`;
  const { rows } = await query.execute(db);
  if (!page || rows.length <= page.limit) return { rows, next: null };
  return { rows: rows.slice(0, page.limit), next: encodeCursor(offset + page.limit) };
}
