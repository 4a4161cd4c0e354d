import { t, msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { showNotice } from '#web/lib/notices';
import { queryKeys } from '#web/lib/query-keys';
import { offerUndo } from '#web/lib/undo';
import { dueLabel } from '../lib/dates';
import { findTodo, refreshViews, replaceTodo } from '../lib/todo-cache';

/** What the screen shows while offline, loaded then (lib/offline-writes.ts). */
const offlineWrites = () => import('../lib/offline-writes');

const OPERATION = msg`Skip todo failed`;

/**
 * Skips the current occurrence of a repeating todo: it moves to its next due date. Undo puts the
 * due date back (only that: the skip changes nothing else).
 */
export function useSkipTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    // Offline, queued with the version it started from; the next date comes with the server's
    // answer, so the row keeps its date meanwhile.
    mutationFn: (id: number) =>
      api.todos.skip({
        params: { id },
        operation: OPERATION,
        offline: async () =>
          (await offlineWrites()).changeOf(null, findTodo(queryClient, id), 'skipping'),
      }),
    onMutate: (id) => ({ previous: findTodo(queryClient, id) }),
    onSuccess: (skipped, _id, context) => {
      if (!skipped) {
        const title = context.previous?.title;
        showNotice(
          title === undefined
            ? t`The todo: skipped once the server answers.`
            : t`${title}: skipped once the server answers.`,
          { tone: 'info' },
        );
        return;
      }
      replaceTodo(queryClient, skipped.id, () => skipped);
      refreshViews(queryClient);
      const { title } = skipped;
      const next = dueLabel(skipped, new Date()) ?? '';
      const text = t`${title}: skipped. Next due ${next}.`;
      const previous = context?.previous;
      if (previous) {
        offerUndo(
          text,
          async () => {
            const restored = await api.todos.patch({
              params: { id: skipped.id },
              // The start date moved with the due date (todos/service.ts, movedStart).
              body: {
                dueDate: previous.dueDate,
                dueTime: previous.dueTime,
                startDate: previous.startDate,
              },
              operation: msg`Undo skip failed`,
            });
            replaceTodo(queryClient, restored.id, () => restored);
            refreshViews(queryClient);
          },
          { operation: msg`Undo skip failed` },
        );
      } else {
        showNotice(text, { tone: 'info', durationMs: 6000 });
      }
    },
    meta: { operation: OPERATION, invalidates: [queryKeys.statistics] },
  });
}
