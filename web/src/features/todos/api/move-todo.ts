import { t, msg } from '@lingui/core/macro';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { MoveTodoBody, Todo } from '@tally/contract';
import { api } from '#web/lib/api';
import { reportMutationError } from '#web/lib/mutation-errors';
import { queryKeys } from '#web/lib/query-keys';
import { offerUndo } from '#web/lib/undo';
import { findTodo, replaceTodo } from '../lib/todo-cache';

/** What the screen shows while offline, loaded then (lib/offline-writes.ts). */
const offlineWrites = () => import('../lib/offline-writes');

const OPERATION = msg`Move todo failed`;

export interface MoveInput {
  id: number;
  beforeId?: number;
  afterId?: number;
  /** The position it takes meanwhile, so the row moves at once. */
  position: number;
  /** Dropped among another parent's subtasks (or the top level, null): it joins that parent. */
  parentId?: number | null;
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

/**
 * The calls (queued offline, lib/api.ts, with the row where it is shown): first the new parent,
 * when it changes (a move names a sibling of the same parent), then the place among its new
 * siblings. Offline both carry the version of the todo as the move started from it, and answer it.
 */
const send = async (
  queryClient: QueryClient,
  id: number,
  body: MoveTodoBody,
  parentId?: number | null,
) => {
  if (parentId !== undefined) await sendParent(queryClient, id, parentId);
  return api.todos.move({
    params: { id },
    body,
    operation: OPERATION,
    offline: async () => {
      const before = findTodo(queryClient, id);
      return (await offlineWrites()).changeOf(before ?? null, before, 'moving');
    },
  });
};

/** Only the parent (the undo of a move into a parent where it had no sibling). */
const sendParent = (queryClient: QueryClient, id: number, parentId: number | null) =>
  api.todos.patch({
    params: { id },
    body: { parentId },
    operation: OPERATION,
    offline: async () => {
      const before = findTodo(queryClient, id);
      return (await offlineWrites()).changeOf(before ?? null, before, 'reparenting');
    },
  });

/**
 * Moves a todo in the manual order (POST /api/todos/{id}/move), kept for every device, under
 * another parent too (PATCH parentId first); offline it waits in the queue. Undo puts it back
 * under its parent, next to the sibling it was next to.
 */
export function useMoveTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, beforeId, afterId, parentId }: MoveInput) =>
      send(
        queryClient,
        id,
        beforeId !== undefined ? { beforeId } : { afterId: afterId ?? id },
        parentId,
      ),
    onMutate: ({ id, position, parentId }) => {
      const before = findTodo(queryClient, id);
      const place = before ? placeOf(queryClient, before) : null;
      replaceTodo(queryClient, id, (todo: Todo) => ({
        ...todo,
        position,
        ...(parentId === undefined ? {} : { parentId }),
      }));
      return { before, place };
    },
    onSuccess: (moved, { id, parentId }, context) => {
      if (moved) replaceTodo(queryClient, moved.id, () => moved);
      const { before, place } = context;
      if (!before) return;
      // Back to its former parent (when it changed), then beside the sibling it was next to.
      const oldParent = parentId === undefined ? undefined : before.parentId;
      if (!place && oldParent === undefined) return;
      const { title } = before;
      offerUndo(t`Moved "${title}"`, async () => {
        replaceTodo(queryClient, id, (todo: Todo) => ({
          ...todo,
          position: before.position,
          parentId: before.parentId,
        }));
        const back = place
          ? await send(queryClient, id, place, oldParent)
          : await sendParent(queryClient, id, before.parentId);
        if (back) replaceTodo(queryClient, id, () => back);
      });
    },
    // The list took the move at once: when the server refuses it, fetch the truth again.
    onError: (error) => {
      reportMutationError(error, OPERATION);
      void queryClient.invalidateQueries({ queryKey: queryKeys.todos });
    },
  });
}
