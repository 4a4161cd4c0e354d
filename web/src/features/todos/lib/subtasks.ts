import type { Todo } from '@tally/contract';

/**
 * Subtasks in the list (docs/product.md, Subtasks): the API answers them flat, each with its
 * parentId; the list shows each under its parent, indented, in the order it was given, and a
 * parent shows done/total of its direct subtasks.
 */

export interface Progress {
  done: number;
  total: number;
}

/**
 * The todos with every subtask right after its parent (depth 0 at the top). A subtask whose
 * parent is not in the list (another tab, a filter) stands at the top level.
 */
export function nestTodos(todos: readonly Todo[]): { todos: Todo[]; depths: Map<number, number> } {
  const ids = new Set(todos.map((todo) => todo.id));
  const children = new Map<number, Todo[]>();
  const roots: Todo[] = [];
  for (const todo of todos) {
    if (todo.parentId !== null && ids.has(todo.parentId)) {
      const list = children.get(todo.parentId);
      if (list) list.push(todo);
      else children.set(todo.parentId, [todo]);
    } else {
      roots.push(todo);
    }
  }
  if (children.size === 0) return { todos: [...todos], depths: new Map() };
  const ordered: Todo[] = [];
  const depths = new Map<number, number>();
  const visit = (todo: Todo, depth: number) => {
    ordered.push(todo);
    depths.set(todo.id, depth);
    for (const child of children.get(todo.id) ?? []) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  return { todos: ordered, depths };
}

/** done/total of each parent's direct subtasks, among the given todos. */
export function progressOf(todos: readonly Todo[]): Map<number, Progress> {
  const progress = new Map<number, Progress>();
  for (const todo of todos) {
    if (todo.parentId === null) continue;
    const entry = progress.get(todo.parentId) ?? { done: 0, total: 0 };
    entry.total += 1;
    if (todo.completed) entry.done += 1;
    progress.set(todo.parentId, entry);
  }
  return progress;
}

/**
 * The first line of a description for the list, as plain text: without a leading list, task,
 * quote or heading marker, `**strong**`, `*emphasis*` and `code` marks, or a link's address.
 * Underscores stay: `snake_case`, `__init__` and `window.__x` are text more often than Markdown.
 */
export const firstLine = (description: string) =>
  (description.split('\n').find((line) => line.trim() !== '') ?? '')
    .replace(/^\s*(?:[-*+]\s+\[[ xX]\]\s+|[-*+>]\s+|#{1,6}\s+|\d+[.)]\s+)/, '')
    .replace(/\*\*(?=\S)([^*]+?)(?<=\S)\*\*/g, '$1')
    .replace(/\*(?=\S)([^*]+?)(?<=\S)\*/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim();

/** The ids of every subtask (at every level) of the todo, among the given todos. */
export function subtreeOf(todos: readonly Todo[], id: number): number[] {
  const found: number[] = [];
  let frontier = new Set([id]);
  while (frontier.size > 0) {
    const next = todos.filter((todo) => todo.parentId !== null && frontier.has(todo.parentId));
    found.push(...next.map((todo) => todo.id));
    frontier = new Set(next.map((todo) => todo.id));
  }
  return found;
}
