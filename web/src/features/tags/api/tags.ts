import { msg } from '@lingui/core/macro';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { UpdateTagBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** The user's tags, A-Z, with how many open todos carry each. */
export function useTags() {
  return useQuery({
    queryKey: queryKeys.tags,
    queryFn: ({ signal }) => api.tags.list({ operation: msg`Load tags failed`, signal }),
  });
}

/** Renames (merging into a tag of that name), recolours or deletes a tag; todos follow. */
export function useChangeTag() {
  const invalidates = [queryKeys.tags, queryKeys.todos];
  const update = useMutation({
    mutationFn: ({ name, body }: { name: string; body: UpdateTagBody }) =>
      api.tags.update({ params: { name }, body, operation: msg`Change tag failed` }),
    meta: { operation: msg`Change tag failed`, invalidates },
  });
  const remove = useMutation({
    mutationFn: (name: string) =>
      api.tags.remove({ params: { name }, operation: msg`Delete tag failed` }),
    meta: { operation: msg`Delete tag failed`, invalidates },
  });
  return { update, remove };
}
