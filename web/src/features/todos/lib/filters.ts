import type { Todo, TodoCounts, TodoSort } from '@tally/contract';

/** All todos, the ungrouped ones, or one group's. */
export type TodoFilter = 'all' | 'none' | number;

export function matchesFilter(todo: Todo, filter: TodoFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'none') return todo.groupId === null;
  return todo.groupId === filter;
}

/**
 * Newest first by created date, ties by higher id (docs/product.md, Todos screen). Each date is
 * parsed once, not once per comparison: the list may hold 10,000 todos.
 */
export function sortNewestFirst(todos: readonly Todo[]): Todo[] {
  const keyed = todos.map((todo) => ({ todo, time: Date.parse(todo.created) }));
  keyed.sort((a, b) => {
    const byDate = b.time - a.time;
    return byDate !== 0 && !Number.isNaN(byDate) ? byDate : b.todo.id - a.todo.id;
  });
  return keyed.map(({ todo }) => todo);
}

const compareText = (a: string, b: string) => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * The list in the user's sort (docs/product.md, Sorting), as the server orders ?sort=: each
 * from newest first, which a stable sort keeps for ties.
 */
export function sortTodos(todos: readonly Todo[], sort: TodoSort): Todo[] {
  const newest = sortNewestFirst(todos);
  switch (sort) {
    case 'created':
      return newest;
    case 'due':
      return newest.sort(
        (a, b) =>
          (a.dueDate === b.dueDate
            ? 0
            : a.dueDate === null
              ? 1
              : b.dueDate === null
                ? -1
                : compareText(a.dueDate, b.dueDate)) ||
          compareText(a.dueTime ?? '', b.dueTime ?? ''),
      );
    case 'priority':
      return newest.sort((a, b) => b.priority - a.priority);
    case 'title':
      return newest.sort((a, b) => compareText(a.title, b.title));
    case 'manual':
      return newest.sort((a, b) => a.position - b.position || b.id - a.id);
  }
}

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
