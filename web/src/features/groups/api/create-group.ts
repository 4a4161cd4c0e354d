import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, GroupBody } from '@tally/contract';
import { apiRequest } from '../../../lib/api-client';
import { reportMutationError } from '../../../lib/mutation-errors';
import { queryKeys } from '../../../lib/query-keys';

const OPERATION = 'Create group';

/** POST /api/todo-groups */
export function createGroup(body: GroupBody): Promise<Group> {
  return apiRequest<Group, GroupBody>('/api/todo-groups', {
    method: 'POST',
    body,
    operation: OPERATION,
  });
}

/** Creates a group and puts it at the top of the list. */
export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGroup,
    onSuccess: (created) => {
      queryClient.setQueryData<Group[]>(queryKeys.groups, (groups = []) => [
        created,
        ...groups.filter((group) => group.id !== created.id),
      ]);
      void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
    },
    onError: (error) => reportMutationError(error, OPERATION),
  });
}
