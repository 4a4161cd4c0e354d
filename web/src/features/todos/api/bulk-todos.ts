import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { BulkBody, Todo } from '@tally/contract';
import { api } from '#web/lib/api';
import { reportMutationError } from '#web/lib/mutation-errors';
import { queryKeys } from '#web/lib/query-keys';
import { refreshViews, removeTodos, replaceTodos } from '../lib/todo-cache';

const OPERATION = 'Change todos';

const bulk = (body: BulkBody) => api.todos.bulk({ body, operation: OPERATION });

/**
 * The calls that take a bulk change back: reopen what was completed, complete what was
 * reopened, move each todo back to the group it was in, restore what was deleted. Only the
 * todos the server changed (`changed`) are taken back; `before` holds them as they were.
 */
export function undoCallsOf(
  body: BulkBody,
  changed: readonly Todo[],
  before: ReadonlyMap<number, Todo>,
): BulkBody[] {
  const ids = changed.map((todo) => todo.id);
  if (ids.length === 0) return [];
  switch (body.action) {
    case 'complete':
      return [{ ids, action: 'reopen' }];
    case 'reopen':
      return [{ ids, action: 'complete' }];
    case 'delete':
      return [{ ids, action: 'restore' }];
    case 'restore':
      return [{ ids, action: 'delete' }];
    case 'move': {
      const byGroup = new Map<number | null, number[]>();
      for (const id of ids) {
        const groupId = before.get(id)?.groupId ?? null;
        byGroup.set(groupId, [...(byGroup.get(groupId) ?? []), id]);
      }
      return [...byGroup].map(([groupId, group]) => ({ ids: group, action: 'move', groupId }));
    }
  }
}

/** Puts a bulk answer in the cache: deleted todos leave, the others are replaced (or come back). */
function apply(queryClient: QueryClient, body: BulkBody, changed: Todo[]) {
  if (body.action === 'delete') removeTodos(queryClient, body.ids);
  else replaceTodos(queryClient, changed);
  refreshViews(queryClient);
  void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
  if (body.action === 'delete' || body.action === 'restore') {
    void queryClient.invalidateQueries({ queryKey: queryKeys.trash });
  }
}

/**
 * One change to many todos (POST /api/todos/bulk, one transaction); `undo` sends the calls that
 * take one back (undoCallsOf) and puts their answers in place too. It throws when one fails, for
 * the Undo toast to report (lib/undo.ts).
 */
export function useBulkTodos() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: bulk,
    onSuccess: (changed, body) => apply(queryClient, body, changed),
    onError: (error) => reportMutationError(error, OPERATION),
  });
  const undo = async (calls: readonly BulkBody[]) => {
    for (const call of calls) apply(queryClient, call, await bulk(call));
  };
  return { mutation, undo };
}
