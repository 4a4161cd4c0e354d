import type { Todo } from '@tally/contract';

/** All todos, the ungrouped ones, or one group's. */
export type TodoFilter = 'all' | 'none' | number;

export function matchesFilter(todo: Todo, filter: TodoFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'none') return todo.groupId === null;
  return todo.groupId === filter;
}

/** Newest first by created date, ties by higher id (docs/product.md, Todos screen). */
export function sortNewestFirst(todos: readonly Todo[]): Todo[] {
  return [...todos].sort((a, b) => {
    const byDate = Date.parse(b.created) - Date.parse(a.created);
    return byDate !== 0 && !Number.isNaN(byDate) ? byDate : b.id - a.id;
  });
}
