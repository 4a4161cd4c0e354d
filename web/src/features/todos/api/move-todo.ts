import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Todo } from '@tally/contract';
import { api } from '#web/lib/api';
import { reportMutationError } from '#web/lib/mutation-errors';
import { replaceTodo } from '../lib/todo-cache';

const OPERATION = 'Move todo';

export interface MoveInput {
  id: number;
  beforeId?: number;
  afterId?: number;
  /** The position it takes meanwhile, so the row moves at once. */
  position: number;
}

/** Moves a todo in the manual order (POST /api/todos/{id}/move), kept for every device. */
export function useMoveTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, beforeId, afterId }: MoveInput) =>
      api.todos.move({
        params: { id },
        body: beforeId !== undefined ? { beforeId } : { afterId: afterId ?? id },
        operation: OPERATION,
      }),
    onMutate: ({ id, position }) => {
      replaceTodo(queryClient, id, (todo: Todo) => ({ ...todo, position }));
    },
    onSuccess: (moved) => replaceTodo(queryClient, moved.id, () => moved),
    onError: (error) => reportMutationError(error, OPERATION),
  });
}
