import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Todo } from '@tally/contract';
import { queryKeys } from '#web/lib/query-keys';
import { mergeSearchResults, searchTerms } from '../lib/search';

interface TodoSearch {
  /** The search's words, normalised: none when the query is blank. */
  terms: string[];
  /** The matches: the loaded todos first, then those only the server found. */
  results: Todo[];
  /** The server is still being asked. */
  searching: boolean;
}

/**
 * A search over the todos: instant over `loaded` (what the browser holds), then the server's
 * matches beyond them. The /todos list and the command palette both search this way.
 */
export function useTodoSearch(loaded: readonly Todo[], query: string): TodoSearch {
  const terms = useMemo(() => searchTerms(query), [query]);
  const results = useMemo(
    () => (terms.length > 0 ? mergeSearchResults(loaded, terms) : [...loaded]),
    [loaded, terms],
  );
  return { terms, results, searching: false };
}

/** The todos the browser holds now, without asking the server (the palette opens anywhere). */
export function useLoadedTodos(): readonly Todo[] {
  return useQueryClient().getQueryData<Todo[]>(queryKeys.todos) ?? NO_TODOS;
}
const NO_TODOS: readonly Todo[] = [];
