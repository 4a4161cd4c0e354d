import type { Todo } from '@tally/contract';

/**
 * The list's Completed part (decision 087): completed todos gather at the end of the
 * list, after the open ones, each part in the list's own order. A subtask stays with its parent
 * (a completed subtask of an open todo is in the open part; an open subtask of a completed todo
 * goes with it). A todo completed while the list is on screen (`lingering`) keeps its place until
 * the list is left, so a tap's result can be seen and undone where it happened.
 */
export function splitCompleted(
  todos: readonly Todo[],
  lingering: ReadonlySet<number>,
): { open: Todo[]; done: Todo[] } {
  const byId = new Map(todos.map((todo) => [todo.id, todo]));
  // The top of each todo's family among the given todos (a parent not given does not count).
  const rootOf = (todo: Todo): Todo => {
    let current = todo;
    const seen = new Set<number>();
    while (current.parentId !== null && !seen.has(current.id)) {
      seen.add(current.id);
      const parent = byId.get(current.parentId);
      if (!parent) break;
      current = parent;
    }
    return current;
  };
  const open: Todo[] = [];
  const done: Todo[] = [];
  for (const todo of todos) {
    const root = rootOf(todo);
    if (root.completed && !lingering.has(root.id)) done.push(todo);
    else open.push(todo);
  }
  return { open, done };
}
