import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, GroupBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { refusalOfField } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Create group failed`;

/** Creates a group and puts it at the top of the list. */
export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GroupBody) =>
      api.groups.create({ body, operation: OPERATION }).catch(refusalOfField('name', [409])),
    onSuccess: (created) => {
      queryClient.setQueryData<Group[]>(queryKeys.groups, (groups = []) => [
        created,
        ...groups.filter((group) => group.id !== created.id),
      ]);
    },
    // A name already taken (409) is said beside the name field, not in a notice.
    meta: { operation: OPERATION, fieldErrors: ['name'], invalidates: [queryKeys.statistics] },
  });
}
