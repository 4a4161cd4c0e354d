import { useDeferredValue, useMemo, useState } from 'react';
import type { Todo } from '@tally/contract';
import { sortTodos } from '@tally/contract/todo-shape';
import { useCommand } from '#web/lib/commands';
import { useTodoCounts, useTodos } from '../api/get-todos';
import { useTodoSearch } from '../api/search-todos';
import { useSetTodoSort, useTodoSorts } from '../api/todo-sorts';
import { dateOf } from '../lib/dates';
import { countsOfServer, countTodos, type TodoFilter } from '../lib/filters';
import { deriveTodoList } from '../lib/todo-list';
import { useCompletedOpen, useHideCompleted } from './use-hide-completed';

const NO_TODOS: readonly Todo[] = [];

/**
 * The All view's list and its switches: the loaded todos searched (`query`), in the tab's sort,
 * filtered by the tab, Hide completed and Show later todos, split into the open and Completed
 * parts (lib/todo-list.ts). The list arrives page by page (api/get-todos.ts): until the last page
 * is in, the counts are the server's.
 */
export function useTodoList(query: string, filter: TodoFilter, now: Date) {
  const { todos, complete } = useTodos();
  const serverCounts = useTodoCounts(!complete);
  const [hideCompleted, setHideCompleted] = useHideCompleted();
  // The command palette's "Hide or show completed todos" (web/src/app/commands).
  useCommand('toggleHideCompleted', () => setHideCompleted(!hideCompleted));
  // Typing stays immediate; the list follows as soon as React has time.
  const searched = useDeferredValue(query);
  const search = useTodoSearch(todos.data ?? NO_TODOS, searched);

  const sorts = useTodoSorts();
  const setSort = useSetTodoSort();
  const sortView = filter === 'all' ? 'all' : filter === 'none' ? 'ungrouped' : `group-${filter}`;
  const sort = sorts.data?.[sortView] ?? 'created';
  const changeSort = setSort.mutate;
  // The command palette's "Sort by …" (web/src/app/commands).
  useCommand('setSort', (next) => changeSort({ view: sortView, sort: next }));
  const sorted = useMemo(() => sortTodos(search.results, sort), [search.results, sort]);
  const [showLater, setShowLater] = useState(false);
  const today = dateOf(now);
  // Todos seen open since the list came on screen (only ever grows, so it lives outside
  // React's state): completed now, they keep their place. Only the server's answer counts: a
  // copy restored from an earlier visit may show open what was completed since.
  const [seenOpen] = useState(() => new Set<number>());
  const fresh = todos.isFetchedAfterMount;
  const searching = search.terms.length > 0;
  const parts = useMemo(() => {
    const derived = deriveTodoList({
      sorted,
      searching,
      filter,
      hideCompleted,
      showLater,
      today,
      lingering: seenOpen,
    });
    if (fresh) for (const todo of derived.visible) if (!todo.completed) seenOpen.add(todo.id);
    return derived;
  }, [sorted, searching, filter, hideCompleted, showLater, today, seenOpen, fresh]);
  const localCounts = useMemo(() => countTodos(todos.data ?? NO_TODOS), [todos.data]);
  const counts = useMemo(
    () => (!complete && serverCounts.data ? countsOfServer(serverCounts.data) : localCounts),
    [complete, serverCounts.data, localCounts],
  );
  // The Completed part (decision 087): collapsed unless opened (remembered in this browser).
  const [completedOpen, setCompletedOpen] = useCompletedOpen();
  const { open, done } = parts;
  const shown = useMemo(
    () => (completedOpen && done.length > 0 ? [...open, ...done] : open),
    [completedOpen, open, done],
  );
  return {
    todos,
    complete,
    serverCounts,
    counts,
    searched,
    search,
    sort,
    setSort: (next: typeof sort) => changeSort({ view: sortView, sort: next }),
    hideCompleted,
    setHideCompleted,
    showLater,
    setShowLater,
    completedOpen,
    setCompletedOpen,
    shown,
    ...parts,
  };
}
