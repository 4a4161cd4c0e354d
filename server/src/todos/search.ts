import type { Db } from '../db/schema.js';
import { searchMatches } from './queries.js';
import type { TodoColumns, TodoFilters } from './rows.js';
import { badRequest } from '../shared/errors.js';
import { searchWords } from '@tally/contract/search-words';

type Row = TodoColumns;

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
  // One more than the page, to know whether another follows.
  const window = page ? { limit: page.limit + 1, offset } : null;
  const rows = await searchMatches(db, userId, words, window, filters);
  if (!page || rows.length <= page.limit) return { rows, next: null };
  return { rows: rows.slice(0, page.limit), next: encodeCursor(offset + page.limit) };
}
