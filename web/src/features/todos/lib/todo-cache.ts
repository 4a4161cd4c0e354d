import type { QueryClient } from '@tanstack/react-query';
import type { Todo } from '@tally/contract';
import { queryKeys } from '#web/lib/query-keys';
import { sortNewestFirst } from './filters';

/**
 * The todos held in the browser: the whole list (queryKeys.todos), the views by due date
 * (queryKeys.todoViews) and the server's search results (queryKeys.todoSearches). A change lands
 * in all of them at once; the views, whose membership
 * and order follow the due date, are then fetched again.
 */

/** Lists whose first load has brought every page, by query client (api/get-todos.ts). */
const complete = new WeakMap<QueryClient, boolean>();

export function setListComplete(queryClient: QueryClient, value: boolean): void {
  complete.set(queryClient, value);
}

/** Whether every page of the list has arrived (true before a first load has begun). */
export function isListComplete(queryClient: QueryClient): boolean {
  return complete.get(queryClient) ?? true;
}

/**
 * Stops fetches that would overwrite an optimistic change with older data: the views, and a
 * refetch of the list. The list's first load goes on: cancelling it would leave only the pages
 * that had arrived (new pages never hold the todo being changed).
 */
export async function cancelTodoRefetches(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({
    queryKey: queryKeys.todos,
    predicate: (query) => query.queryKey.length > 1 || isListComplete(queryClient),
  });
}

/** Changes one todo wherever it is held. */
export function replaceTodo(
  queryClient: QueryClient,
  id: number,
  change: (todo: Todo) => Todo,
): void {
  const update = (todos: Todo[] | undefined) =>
    todos?.map((todo) => (todo.id === id ? change(todo) : todo));
  queryClient.setQueryData<Todo[]>(queryKeys.todos, update);
  queryClient.setQueriesData<Todo[]>({ queryKey: queryKeys.todoViews }, update);
  queryClient.setQueriesData<Todo[]>({ queryKey: queryKeys.todoSearches }, update);
}

/**
 * Puts the server's answer for many todos in place at once (one pass over the list, whatever its
 * size); todos the list does not hold (restored from the trash) join it.
 */
export function replaceTodos(queryClient: QueryClient, changed: readonly Todo[]): void {
  const byId = new Map(changed.map((todo) => [todo.id, todo]));
  const update = (todos: Todo[] | undefined) => todos?.map((todo) => byId.get(todo.id) ?? todo);
  queryClient.setQueryData<Todo[]>(queryKeys.todos, (todos) => {
    if (!todos) return todos;
    const held = new Set(todos.map((todo) => todo.id));
    const added = changed.filter((todo) => !held.has(todo.id));
    const replaced = update(todos) ?? todos;
    // Restored todos go back to their places, newest first.
    return added.length > 0 ? sortNewestFirst([...added, ...replaced]) : replaced;
  });
  queryClient.setQueriesData<Todo[]>({ queryKey: queryKeys.todoViews }, update);
  queryClient.setQueriesData<Todo[]>({ queryKey: queryKeys.todoSearches }, update);
}

/** Takes deleted todos out of the list and the views, in one pass. */
export function removeTodos(queryClient: QueryClient, ids: readonly number[]): void {
  const gone = new Set(ids);
  const remove = (todos: Todo[] | undefined) => todos?.filter((todo) => !gone.has(todo.id));
  queryClient.setQueryData<Todo[]>(queryKeys.todos, remove);
  queryClient.setQueriesData<Todo[]>({ queryKey: queryKeys.todoViews }, remove);
  queryClient.setQueriesData<Todo[]>({ queryKey: queryKeys.todoSearches }, remove);
  void queryClient.invalidateQueries({ queryKey: queryKeys.todoCounts });
}

/** A todo as the browser holds it (the whole list, or a view), or undefined. */
export function findTodo(queryClient: QueryClient, id: number): Todo | undefined {
  for (const [, todos] of queryClient.getQueriesData<Todo[]>({ queryKey: queryKeys.todos })) {
    const todo = todos?.find((candidate) => candidate.id === id);
    if (todo) return todo;
  }
  return undefined;
}

/** Puts a todo back (restored from the trash) in its place in the newest-first list. */
export function insertTodo(queryClient: QueryClient, todo: Todo): void {
  queryClient.setQueryData<Todo[]>(queryKeys.todos, (todos) => {
    if (!todos) return todos;
    const rest = todos.filter((existing) => existing.id !== todo.id);
    const at = rest.findIndex(
      (existing) =>
        existing.created < todo.created ||
        (existing.created === todo.created && existing.id < todo.id),
    );
    return at === -1 ? [...rest, todo] : [...rest.slice(0, at), todo, ...rest.slice(at)];
  });
  refreshViews(queryClient);
}

/** The views (and the server's tab counts) are fetched again, now if shown, else when next shown. */
export function refreshViews(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.todoViews });
  void queryClient.invalidateQueries({ queryKey: queryKeys.todoCounts });
}
