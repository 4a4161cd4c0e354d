import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, GroupBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = 'Update group';

/** Renames or recolours a group in place. */
export function useUpdateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: GroupBody & { id: number }) =>
      api.groups.update({ params: { id }, body, operation: OPERATION }),
    onSuccess: (updated) => {
      queryClient.setQueryData<Group[]>(queryKeys.groups, (groups = []) =>
        groups.map((group) => (group.id === updated.id ? updated : group)),
      );
    },
    meta: { operation: OPERATION, invalidates: [queryKeys.statistics] },
  });
}
