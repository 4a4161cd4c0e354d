import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { BulkBody, Todo } from '@tally/contract';
import { api } from '#web/lib/api';
import { ApiError } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';
import { refreshViews, removeTodos, replaceTodos } from '../lib/todo-cache';

const OPERATION = msg`Change todos failed`;

const bulk = (body: BulkBody) => api.todos.bulk({ body, operation: OPERATION });

/**
 * The calls that take a bulk change back: reopen what was completed, complete what was
 * reopened, move each todo back to the group it was in (or to the date it had), restore what was
 * deleted. Only the
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
    case 'tag':
      // Only the todos that did not carry the tag before lose it again.
      return untaggedBefore(body.tag ?? '', changed, before);
    case 'untag': {
      const had = changed.filter((todo) =>
        before.get(todo.id)?.tags.some((t) => t.toLowerCase() === body.tag?.toLowerCase()),
      );
      return had.length === 0 ? [] : [{ ids: had.map((t) => t.id), action: 'tag', tag: body.tag }];
    }
    case 'due': {
      // Back to each todo's own date, one call per date.
      const byDate = new Map<string | null, number[]>();
      for (const id of ids) {
        const dueDate = before.get(id)?.dueDate ?? null;
        byDate.set(dueDate, [...(byDate.get(dueDate) ?? []), id]);
      }
      return [...byDate].map(([dueDate, group]) => ({ ids: group, action: 'due', dueDate }));
    }
    case 'priority':
    case 'parent': {
      // Back to each todo's own value, one call per value.
      const byValue = new Map<number | null, number[]>();
      for (const id of ids) {
        const old = before.get(id);
        const value = body.action === 'priority' ? (old?.priority ?? 0) : (old?.parentId ?? null);
        byValue.set(value, [...(byValue.get(value) ?? []), id]);
      }
      return [...byValue].map(([value, group]) =>
        body.action === 'priority'
          ? { ids: group, action: 'priority', priority: (value ?? 0) as 0 | 1 | 2 | 3 }
          : { ids: group, action: 'parent', parentId: value },
      );
    }
  }
}

function untaggedBefore(
  tag: string,
  changed: readonly Todo[],
  before: ReadonlyMap<number, Todo>,
): BulkBody[] {
  const added = changed.filter(
    (todo) => !before.get(todo.id)?.tags.some((t) => t.toLowerCase() === tag.toLowerCase()),
  );
  return added.length === 0 ? [] : [{ ids: added.map((t) => t.id), action: 'untag', tag }];
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
    // Some changed elsewhere since they were picked (a 412 answers them as they are now):
    // nothing changed, the lists show them so, and the notice says it; the picks stay, so the
    // same action again starts from what is shown.
    onError: (error) => {
      if (error instanceof ApiError && error.status === 412 && Array.isArray(error.current)) {
        replaceTodos(queryClient, error.current as Todo[]);
      }
    },
    meta: { operation: OPERATION },
  });
  const undo = async (calls: readonly BulkBody[]) => {
    for (const call of calls) apply(queryClient, call, await bulk(call));
  };
  return { mutation, undo };
}
