import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, GroupBody } from '@tally/contract';
import { api } from '../../../lib/api';
import { reportMutationError } from '../../../lib/mutation-errors';
import { queryKeys } from '../../../lib/query-keys';

const OPERATION = 'Create group';

/** Creates a group and puts it at the top of the list. */
export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GroupBody) => api.groups.create({ body, operation: OPERATION }),
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
