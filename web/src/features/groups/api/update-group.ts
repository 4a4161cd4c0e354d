import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, GroupBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { refusalOfField } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Update group failed`;

/** Renames or recolours a group in place. */
export function useUpdateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: GroupBody & { id: number }) =>
      api.groups
        .update({ params: { id }, body, operation: OPERATION })
        .catch(refusalOfField('name', [409])),
    onSuccess: (updated) => {
      queryClient.setQueryData<Group[]>(queryKeys.groups, (groups = []) =>
        groups.map((group) => (group.id === updated.id ? updated : group)),
      );
    },
    // A name already taken (409) is said beside the name field, not in a notice.
    meta: { operation: OPERATION, fieldErrors: ['name'], invalidates: [queryKeys.statistics] },
  });
}
