import { msg } from '@lingui/core/macro';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { Todo } from '@tally/contract';
import { SEARCH_QUERY_MAX } from '@tally/contract/constants';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { matchesSearch, mergeSearchResults, searchTerms } from '../lib/search';

/** How long typing pauses before the server is asked: one request per word, not per letter. */
const SERVER_DELAY_MS = 250;
/** The server's best matches asked for (the list shows every held match besides). */
const SERVER_LIMIT = 100;

interface TodoSearch {
  /** The search's words, normalised: none when the query has no letters or digits. */
  terms: string[];
  /** The matches: the held todos first, then those only the server found. */
  results: Todo[];
  /** The server is still to answer for these words. */
  searching: boolean;
}

/** `value`, once it has stayed the same for `delay` ms. */
function useSettled(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * A search over the todos: instant over `loaded` (what the browser holds), then, once typing
 * pauses, the server's matches (GET /api/todos?q=) beyond them. A newer search cancels the
 * request of an older one (React Query aborts the signal of a query no one watches any more).
 * The /todos list and the command palette both search this way.
 */
export function useTodoSearch(loaded: readonly Todo[], query: string): TodoSearch {
  const terms = useMemo(() => searchTerms(query), [query]);
  const words = terms.join(' ').slice(0, SEARCH_QUERY_MAX);
  const asked = useSettled(words, SERVER_DELAY_MS);
  const server = useQuery({
    queryKey: queryKeys.todoSearch(asked),
    queryFn: ({ signal }) =>
      api.todos.list({
        query: { q: asked, limit: SERVER_LIMIT },
        operation: msg`Search todos failed`,
        signal,
      }),
    enabled: asked !== '',
    // The previous words' answer stays while the next is asked; what no longer matches is
    // left out below.
    placeholderData: keepPreviousData,
  });
  const fromServer = asked === '' ? undefined : server.data;
  const results = useMemo(() => {
    if (terms.length === 0) return [...loaded];
    const extra = fromServer?.filter((todo) => matchesSearch(todo, terms));
    return mergeSearchResults(loaded, terms, extra);
  }, [loaded, terms, fromServer]);
  const searching = words !== '' && (words !== asked || server.isFetching);
  return { terms, results, searching };
}

/** The todos the browser holds now, without asking the server (the palette opens anywhere). */
export function useLoadedTodos(): readonly Todo[] {
  return useQueryClient().getQueryData<Todo[]>(queryKeys.todos) ?? NO_TODOS;
}
const NO_TODOS: readonly Todo[] = [];
