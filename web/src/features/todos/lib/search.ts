import type { Todo } from '@tally/contract';
import { searchWords } from '@tally/contract/search-words';

/** The words search compares, as the server finds them (one rule, in the contract). */
export const searchTerms = searchWords;

/** Text as search looks into it: its words, one space apart. */
export const normalizeSearchText = (text: string): string => searchTerms(text).join(' ');

/**
 * Each todo's normalised title, description and tags, computed once per version of the todo: the
 * cache's todo objects are replaced, never changed, when a todo changes, so a todo's entry goes
 * when it does.
 */
const normalized = new WeakMap<Todo, string>();

function searchableText(todo: Todo): string {
  let text = normalized.get(todo);
  if (text === undefined) {
    // Tags too, as the server's search text holds them.
    text = normalizeSearchText(
      [todo.title, todo.description ?? '', ...(todo.tags ?? [])].join('\n'),
    );
    normalized.set(todo, text);
  }
  return text;
}

/**
 * Whether every word of the query occurs in the todo's title or description, anywhere (so
 * "mil" finds "Buy milk", as the server's prefix match does, and more).
 */
export function matchesSearch(todo: Todo, terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  const text = searchableText(todo);
  return terms.every((term) => text.includes(term));
}

/**
 * The todos a search shows: the loaded ones that match (as they are in the browser now), then
 * the server's matches that are not loaded. Order is left to the caller (newest first).
 */
export function mergeSearchResults(
  loaded: readonly Todo[],
  terms: readonly string[],
  fromServer: readonly Todo[] = [],
): Todo[] {
  const matches = loaded.filter((todo) => matchesSearch(todo, terms));
  if (fromServer.length === 0) return matches;
  const loadedIds = new Set(loaded.map((todo) => todo.id));
  return [...matches, ...fromServer.filter((todo) => !loadedIds.has(todo.id))];
}
