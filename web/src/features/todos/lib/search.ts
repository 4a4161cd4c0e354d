import type { Todo } from '@tally/contract';

/** The longest query the box sends (the server refuses longer ones with 400 naming q). */
export const SEARCH_MAX_LENGTH = 200;

/**
 * Text as search compares it, the same way the server does: compatibility decomposition (NFKD:
 * "é" becomes "e" + a combining accent, "ﬁ" becomes "fi"), combining marks removed, lower case.
 */
export function normalizeSearchText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a query, normalised; none for a blank one. */
export function searchTerms(query: string): string[] {
  return normalizeSearchText(query).split(/\s+/u).filter(Boolean);
}

/**
 * Each todo's normalised title and description, computed once per version of the todo: the
 * cache's todo objects are replaced, never changed, when a todo changes, so a todo's entry goes
 * when it does.
 */
const normalized = new WeakMap<Todo, string>();

function searchableText(todo: Todo): string {
  let text = normalized.get(todo);
  if (text === undefined) {
    text = normalizeSearchText(`${todo.title}\n${todo.description ?? ''}`);
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
