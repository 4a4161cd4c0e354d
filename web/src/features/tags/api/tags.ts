import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UpdateTagBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { reportMutationError } from '#web/lib/mutation-errors';
import { queryKeys } from '#web/lib/query-keys';

/** The user's tags, A-Z, with how many open todos carry each. */
export function useTags() {
  return useQuery({
    queryKey: queryKeys.tags,
    queryFn: ({ signal }) => api.tags.list({ operation: 'Load tags', signal }),
  });
}

/** Renames (merging into a tag of that name), recolours or deletes a tag; todos follow. */
export function useChangeTag() {
  const queryClient = useQueryClient();
  const settled = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.tags });
    void queryClient.invalidateQueries({ queryKey: queryKeys.todos });
  };
  const update = useMutation({
    mutationFn: ({ name, body }: { name: string; body: UpdateTagBody }) =>
      api.tags.update({ params: { name }, body, operation: 'Change tag' }),
    onSuccess: settled,
    onError: (error) => reportMutationError(error, 'Change tag'),
  });
  const remove = useMutation({
    mutationFn: (name: string) => api.tags.remove({ params: { name }, operation: 'Delete tag' }),
    onSuccess: settled,
    onError: (error) => reportMutationError(error, 'Delete tag'),
  });
  return { update, remove };
}
