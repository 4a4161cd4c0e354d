import type { Todo } from '@tally/contract';
import { isHiddenUntilLater } from '@tally/contract/todo-shape';
import { splitCompleted } from './completed';
import { matchesFilter, type TodoFilter } from './filters';

const NONE: readonly Todo[] = [];

export interface TodoListInput {
  /** The todos matching the search (every loaded todo without one), in the user's sort. */
  sorted: readonly Todo[];
  /** A search is typed: its matches show in one list, with no Completed part. */
  searching: boolean;
  filter: TodoFilter;
  hideCompleted: boolean;
  /** Show later todos: todos hidden until a later day (their start date) show too. */
  showLater: boolean;
  /** The user's day, YYYY-MM-DD. */
  today: string;
  /** Todos seen open since the list came on screen: completed now, they keep their place. */
  lingering: ReadonlySet<number>;
}

export interface TodoListParts {
  /** The rows the tab shows, open and completed. */
  visible: readonly Todo[];
  /** Some match is hidden until a later day: the Show later todos switch is offered. */
  hasLater: boolean;
  /** Matches of the search that Hide completed hides (the search status names them). */
  hiddenMatches: number;
  /** The list's open part, and its Completed part (decision 087). */
  open: readonly Todo[];
  done: readonly Todo[];
}

/** The All view's list (docs/product.md, Todos screen): what shows, and in which part. */
export function deriveTodoList(input: TodoListInput): TodoListParts {
  const { sorted, searching, filter, hideCompleted, showLater, today } = input;
  const hasLater = sorted.some((todo) => isHiddenUntilLater(todo, today));
  const visible = sorted.filter(
    (todo) =>
      matchesFilter(todo, filter) &&
      !(hideCompleted && todo.completed) &&
      (showLater || !isHiddenUntilLater(todo, today)),
  );
  const hiddenMatches =
    hideCompleted && searching
      ? sorted.filter((todo) => todo.completed && matchesFilter(todo, filter)).length
      : 0;
  const { open, done } = searching
    ? { open: visible, done: NONE }
    : splitCompleted(visible, input.lingering);
  return { visible, hasLater, hiddenMatches, open, done };
}
