import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiToken } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Revoke API token failed`;

/** Revokes a token: it stops working at once and leaves the list. */
export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.tokens.revoke({ params: { id }, operation: OPERATION }),
    onSuccess: (_, id) => {
      queryClient.setQueryData<ApiToken[]>(queryKeys.accountTokens, (tokens) =>
        tokens?.filter((token) => token.id !== id),
      );
    },
    meta: { operation: OPERATION },
  });
}
