import { useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Todo } from '@tally/contract';
import { findTodo } from '../lib/todo-cache';

/**
 * `todo` as the lists now hold it: the newest version of it, once the live stream (or a save)
 * has brought one. The open detail view follows changes made elsewhere through it.
 */
export function useLiveTodo(todo: Todo): Todo {
  const queryClient = useQueryClient();
  const held = useSyncExternalStore(
    (listener) => queryClient.getQueryCache().subscribe(listener),
    () => findTodo(queryClient, todo.id),
  );
  return held && held.version > todo.version ? held : todo;
}
