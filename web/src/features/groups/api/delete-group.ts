import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, Todo } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = 'Delete group';

/** Removes the group, ungroups its todos in the cache at once and reloads them. */
export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.groups.remove({ params: { id }, operation: OPERATION }),
    onSuccess: (_result, id) => {
      queryClient.setQueryData<Group[]>(queryKeys.groups, (groups = []) =>
        groups.filter((group) => group.id !== id),
      );
      queryClient.setQueryData<Todo[]>(queryKeys.todos, (todos) =>
        todos?.map((todo) => (todo.groupId === id ? { ...todo, groupId: null } : todo)),
      );
    },
    meta: { operation: OPERATION, invalidates: [queryKeys.todos, queryKeys.statistics] },
  });
}
