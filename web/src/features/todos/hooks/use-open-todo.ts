import { useSyncExternalStore } from 'react';
import type { Todo } from '@tally/contract';

/**
 * Which todo's detail view is open (a row's title opens it, components/TodoDetail.tsx). A store
 * of its own rather than a prop, so every list (All, Today, Upcoming) reaches it without each
 * passing a callback down to its rows.
 */
let open: Todo | null = null;
const listeners = new Set<() => void>();

function publish(next: Todo | null): void {
  open = next;
  listeners.forEach((listener) => listener());
}

export const openTodo = (todo: Todo): void => publish(todo);
export const closeTodo = (): void => publish(null);

export function useOpenTodo(): Todo | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => open,
  );
}
