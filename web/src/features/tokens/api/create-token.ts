import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiToken, CreateApiTokenBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Create API token failed`;

/** Makes a token; the answer holds the token itself, this once. The list gets the new one. */
export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiTokenBody) => api.tokens.create({ body, operation: OPERATION }),
    onSuccess: ({ token: _shownOnce, ...listed }) => {
      queryClient.setQueryData<ApiToken[]>(queryKeys.accountTokens, (tokens) => [
        listed,
        ...(tokens ?? []),
      ]);
    },
    meta: { operation: OPERATION },
  });
}
