import type { Todo, TodoCounts } from '@tally/contract';
import { sortTodos } from '@tally/contract/todo-shape';

/** All todos, the ungrouped ones, or one group's. */
export type TodoFilter = 'all' | 'none' | number;

export function matchesFilter(todo: Todo, filter: TodoFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'none') return todo.groupId === null;
  return todo.groupId === filter;
}

/** Newest first by created date, ties by higher id (docs/product.md, Todos screen). */
export const sortNewestFirst = (todos: readonly Todo[]): Todo[] => sortTodos(todos, 'created');

/** The tab counts: all todos, the ungrouped ones and each group's. */
export interface FilterCounts {
  all: number;
  none: number;
  groups: ReadonlyMap<number, number>;
}

/** Counts the todos held in the browser, in one pass. */
export function countTodos(todos: readonly Todo[]): FilterCounts {
  const groups = new Map<number, number>();
  let none = 0;
  for (const todo of todos) {
    if (todo.groupId === null) none++;
    else groups.set(todo.groupId, (groups.get(todo.groupId) ?? 0) + 1);
  }
  return { all: todos.length, none, groups };
}

/** The server's counts (GET /api/todos/counts) in the same shape. */
export function countsOfServer(counts: TodoCounts): FilterCounts {
  return {
    all: counts.all,
    none: counts.ungrouped,
    groups: new Map(counts.groups.map(({ groupId, count }) => [groupId, count])),
  };
}

export function countOf(counts: FilterCounts, filter: TodoFilter): number {
  if (filter === 'all') return counts.all;
  if (filter === 'none') return counts.none;
  return counts.groups.get(filter) ?? 0;
}
