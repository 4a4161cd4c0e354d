import { useMutation, useQuery } from '@tanstack/react-query';
import type { UpdateTagBody } from '@tally/contract';
import { api } from '#web/lib/api';
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
  const invalidates = [queryKeys.tags, queryKeys.todos];
  const update = useMutation({
    mutationFn: ({ name, body }: { name: string; body: UpdateTagBody }) =>
      api.tags.update({ params: { name }, body, operation: 'Change tag' }),
    meta: { operation: 'Change tag', invalidates },
  });
  const remove = useMutation({
    mutationFn: (name: string) => api.tags.remove({ params: { name }, operation: 'Delete tag' }),
    meta: { operation: 'Delete tag', invalidates },
  });
  return { update, remove };
}
