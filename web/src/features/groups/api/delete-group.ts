import { t, msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, GroupBody, Todo } from '@tally/contract';
import { BULK_IDS_MAX } from '@tally/contract/constants';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { offerUndo } from '#web/lib/undo';

const OPERATION = msg`Delete group failed`;

/**
 * Removes the group, ungroups its todos in the cache at once and reloads them; the Undo toast
 * (after the browser's confirm, as every other delete offers) makes the group again, same name
 * and colour, and moves the todos it held back into it. The group comes back with a new id.
 */
export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (group: Group) => {
      // Which todos it holds, for the Undo: from the list shown, else (opened on /groups) asked.
      const todos =
        queryClient.getQueryData<Todo[]>(queryKeys.todos) ??
        (await api.todos.list({ query: {}, operation: OPERATION }));
      const held = todos.filter((todo) => todo.groupId === group.id).map((todo) => todo.id);
      await api.groups.remove({ params: { id: group.id }, operation: OPERATION });
      return held;
    },
    onSuccess: (held, group) => {
      queryClient.setQueryData<Group[]>(queryKeys.groups, (groups = []) =>
        groups.filter((existing) => existing.id !== group.id),
      );
      queryClient.setQueryData<Todo[]>(queryKeys.todos, (todos) =>
        todos?.map((todo) => (todo.groupId === group.id ? { ...todo, groupId: null } : todo)),
      );
      const groupName = group.name;
      offerUndo(
        t`Deleted the group "${groupName}"`,
        async () => {
          const again = await api.groups.create({
            // A group's colour is always one of the swatches: the server keeps no other.
            body: { name: group.name, color: group.color as GroupBody['color'] },
            operation: msg`Restore group failed`,
          });
          for (let start = 0; start < held.length; start += BULK_IDS_MAX) {
            await api.todos.bulk({
              body: {
                ids: held.slice(start, start + BULK_IDS_MAX),
                action: 'move',
                groupId: again.id,
              },
              operation: msg`Restore group failed`,
            });
          }
          for (const queryKey of [queryKeys.groups, queryKeys.todos, queryKeys.statistics]) {
            void queryClient.invalidateQueries({ queryKey });
          }
        },
        { operation: msg`Restore group failed` },
      );
    },
    meta: { operation: OPERATION, invalidates: [queryKeys.todos, queryKeys.statistics] },
  });
}
