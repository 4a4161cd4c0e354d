import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { MoveTodoBody, Todo } from '@tally/contract';
import { api } from '#web/lib/api';
import { reportMutationError } from '#web/lib/mutation-errors';
import { isOffline } from '#web/lib/online';
import { queryKeys } from '#web/lib/query-keys';
import { offerUndo } from '#web/lib/undo';
import { queueMove } from '../lib/offline-writes';
import { findTodo, replaceTodo } from '../lib/todo-cache';

const OPERATION = 'Move todo';

export interface MoveInput {
  id: number;
  beforeId?: number;
  afterId?: number;
  /** The position it takes meanwhile, so the row moves at once. */
  position: number;
}

/**
 * Where a todo is now among its siblings, as a move back there says it: after the sibling just
 * above it, or before the one below when it is first. Null when it has no sibling.
 */
function placeOf(queryClient: QueryClient, todo: Todo): MoveTodoBody | null {
  const siblings = (queryClient.getQueryData<Todo[]>(queryKeys.todos) ?? []).filter(
    (other) => other.parentId === todo.parentId && other.id !== todo.id,
  );
  const above = siblings
    .filter((other) => other.position < todo.position)
    .sort((a, b) => b.position - a.position)[0];
  if (above) return { afterId: above.id };
  const below = siblings
    .filter((other) => other.position >= todo.position)
    .sort((a, b) => a.position - b.position)[0];
  return below ? { beforeId: below.id } : null;
}

/** The call, or offline the queued call (lib/offline-writes.ts) with the row where it is shown. */
const send = async (queryClient: QueryClient, id: number, body: MoveTodoBody) => {
  if (!isOffline()) return api.todos.move({ params: { id }, body, operation: OPERATION });
  await queueMove(id, body, OPERATION);
  return findTodo(queryClient, id) ?? null;
};

/**
 * Moves a todo in the manual order (POST /api/todos/{id}/move), kept for every device; offline it
 * waits in the queue. Undo puts it back next to the sibling it was next to.
 */
export function useMoveTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, beforeId, afterId }: MoveInput) =>
      send(queryClient, id, beforeId !== undefined ? { beforeId } : { afterId: afterId ?? id }),
    onMutate: ({ id, position }) => {
      const before = findTodo(queryClient, id);
      const place = before ? placeOf(queryClient, before) : null;
      replaceTodo(queryClient, id, (todo: Todo) => ({ ...todo, position }));
      return { before, place };
    },
    onSuccess: (moved, { id }, context) => {
      if (moved) replaceTodo(queryClient, moved.id, () => moved);
      const { before, place } = context;
      if (!before || !place) return;
      offerUndo(`Moved "${before.title}"`, async () => {
        replaceTodo(queryClient, id, (todo: Todo) => ({ ...todo, position: before.position }));
        const back = await send(queryClient, id, place);
        if (back) replaceTodo(queryClient, id, () => back);
      });
    },
    onError: (error) => reportMutationError(error, OPERATION),
  });
}
