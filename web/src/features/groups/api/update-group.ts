import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, GroupBody } from '@tally/contract';
import { apiRequest } from '../../../lib/api-client';
import { reportMutationError } from '../../../lib/mutation-errors';
import { queryKeys } from '../../../lib/query-keys';

const OPERATION = 'Update group';

/** PUT /api/todo-groups/{id} */
export function updateGroup(id: number, body: GroupBody): Promise<Group> {
  return apiRequest<Group, GroupBody>(`/api/todo-groups/${id}`, {
    method: 'PUT',
    body,
    operation: OPERATION,
  });
}

/** Renames or recolours a group in place. */
export function useUpdateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: GroupBody & { id: number }) => updateGroup(id, body),
    onSuccess: (updated) => {
      queryClient.setQueryData<Group[]>(queryKeys.groups, (groups = []) =>
        groups.map((group) => (group.id === updated.id ? updated : group)),
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
    },
    onError: (error) => reportMutationError(error, OPERATION),
  });
}
