import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SavedFilter, SavedFilterBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { refusalOfField } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** Saves a new filter (no `id`) or changes one, and puts the answer in the list. */
export function useSaveFilter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: SavedFilterBody }) =>
      (id === undefined
        ? api.filters.create({ body, operation: msg`Save filter failed` })
        : api.filters.update({ params: { id }, body, operation: msg`Save filter failed` })
      ).catch(refusalOfField('query', [400])),
    onSuccess: (saved) => {
      queryClient.setQueryData<SavedFilter[]>(queryKeys.savedFilters, (filters = []) =>
        [...filters.filter((filter) => filter.id !== saved.id), saved].sort(
          (a, b) => a.position - b.position || a.id - b.id,
        ),
      );
    },
    // A query the server cannot read is said beside the query field.
    meta: { operation: msg`Save filter failed`, fieldErrors: ['query'] },
  });
}

/** Deletes a saved filter. */
export function useDeleteFilter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api.filters.remove({ params: { id }, operation: msg`Delete filter failed` }),
    onSuccess: (_, id) => {
      queryClient.setQueryData<SavedFilter[]>(queryKeys.savedFilters, (filters = []) =>
        filters.filter((filter) => filter.id !== id),
      );
    },
    meta: { operation: msg`Delete filter failed` },
  });
}

/** Makes (or makes anew) a saved filter's calendar feed, and shows its URL in the list. */
export function useMakeFilterFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api.filters.makeFeed({ params: { id }, operation: msg`Make calendar feed failed` }),
    onSuccess: (feed, id) => {
      queryClient.setQueryData<SavedFilter[]>(queryKeys.savedFilters, (filters = []) =>
        filters.map((filter) => (filter.id === id ? { ...filter, feed } : filter)),
      );
    },
    meta: { operation: msg`Make calendar feed failed` },
  });
}
