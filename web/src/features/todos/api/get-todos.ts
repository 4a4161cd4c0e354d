import { msg } from '@lingui/core/macro';
import {
  experimental_streamedQuery as streamedQuery,
  queryOptions,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { Todo } from '@tally/contract';
import { NEXT_CURSOR_HEADER, TODO_PAGE_MAX } from '@tally/contract/constants';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { isListComplete, setListComplete } from '../lib/todo-cache';

const OPERATION = msg`Load todos failed`;
/** Enough for the first screen; the rest follows in the largest pages the API gives. */
const FIRST_PAGE = 50;

/** The whole list, newest first, page after page (the opt-in paging of docs/decisions/035). */
async function* pages(signal: AbortSignal): AsyncGenerator<Todo[]> {
  let cursor: string | undefined;
  let limit = FIRST_PAGE;
  do {
    let next: string | undefined;
    yield await api.todos.list({
      query: cursor === undefined ? { limit } : { limit, cursor },
      operation: OPERATION,
      signal,
      onResponse: (response) => {
        next = response.headers.get(NEXT_CURSOR_HEADER) ?? undefined;
      },
    });
    cursor = next;
    limit = TODO_PAGE_MAX;
  } while (cursor !== undefined);
}

/**
 * The user's todos, newest first: the whole list, as the screen shows it. The first load shows
 * the first page at once and appends the others as they arrive; a refetch (after 30 s, or when
 * invalidated) asks for the whole list in one answer and replaces it when it is in. Changes land
 * through keyed updates (lib/todo-cache.ts) that keep every other todo's object, so rows that
 * did not change do not render again; structural sharing, which would compare all 10,000 todos
 * on every change, is off.
 */
const todosQueryOptions = queryOptions({
  queryKey: queryKeys.todos,
  structuralSharing: false,
  queryFn: streamedQuery<Todo[], Todo[]>({
    refetchMode: 'replace',
    initialValue: [],
    reducer: (loaded, page) => (loaded.length === 0 ? page : loaded.concat(page)),
    async *streamFn({ client, queryKey, signal }) {
      const refetch = (client.getQueryState(queryKey)?.dataUpdateCount ?? 0) > 0;
      if (refetch) {
        yield await api.todos.list({ query: {}, operation: OPERATION, signal });
        return;
      }
      setListComplete(client, false);
      yield* pages(signal);
      setListComplete(client, true);
    },
  }),
});

/** The todos held in the browser, and whether every page of them has arrived. */
export function useTodos() {
  const queryClient = useQueryClient();
  const todos = useQuery(todosQueryOptions);
  const complete = todos.isSuccess && (!todos.isFetching || isListComplete(queryClient));
  return { todos, complete };
}

/** The server's counts for the tabs: asked for only while the list is still arriving. */
export function useTodoCounts(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.todoCounts,
    queryFn: ({ signal }) => api.todos.counts({ operation: OPERATION, signal }),
    enabled,
    staleTime: 0,
  });
}
