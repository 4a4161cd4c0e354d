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
        ? api.filters.create({ body, operation: 'Save filter' })
        : api.filters.update({ params: { id }, body, operation: 'Save filter' })
      ).catch(refusalOfField('query', [400])),
    onSuccess: (saved) => {
      queryClient.setQueryData<SavedFilter[]>(queryKeys.savedFilters, (filters = []) =>
        [...filters.filter((filter) => filter.id !== saved.id), saved].sort(
          (a, b) => a.position - b.position || a.id - b.id,
        ),
      );
    },
    // A query the server cannot read is said beside the query field.
    meta: { operation: 'Save filter', fieldErrors: ['query'] },
  });
}

/** Deletes a saved filter. */
export function useDeleteFilter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.filters.remove({ params: { id }, operation: 'Delete filter' }),
    onSuccess: (_, id) => {
      queryClient.setQueryData<SavedFilter[]>(queryKeys.savedFilters, (filters = []) =>
        filters.filter((filter) => filter.id !== id),
      );
    },
    meta: { operation: 'Delete filter' },
  });
}

/** Makes (or makes anew) a saved filter's calendar feed, and shows its URL in the list. */
export function useMakeFilterFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api.filters.makeFeed({ params: { id }, operation: 'Make calendar feed' }),
    onSuccess: (feed, id) => {
      queryClient.setQueryData<SavedFilter[]>(queryKeys.savedFilters, (filters = []) =>
        filters.map((filter) => (filter.id === id ? { ...filter, feed } : filter)),
      );
    },
    meta: { operation: 'Make calendar feed' },
  });
}
