import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export type TodoView = 'today' | 'upcoming';

/**
 * Open todos by due date in the browser's zone, soonest first (the server decides what is due
 * today, from the x-time-zone the client sends): Today (due today or overdue) or Upcoming
 * (today and the next six days).
 */
const todoViewQueryOptions = (view: TodoView, day: string) =>
  queryOptions({
    queryKey: queryKeys.todoView(view, day),
    queryFn: ({ signal }) =>
      api.todos.list({ query: { view }, operation: msg`Load todos failed`, signal }),
  });

/** `day`: the browser's date now (lib/dates.ts dateOf), so the view follows midnight. */
export function useTodoView(view: TodoView, day: string) {
  return useQuery(todoViewQueryOptions(view, day));
}
