import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const LOAD_TOKENS_OPERATION = msg`Load API tokens failed`;

/** The account's personal API tokens, newest first (never the tokens themselves). */
const tokensQueryOptions = queryOptions({
  queryKey: queryKeys.accountTokens,
  queryFn: ({ signal }) => api.tokens.list({ operation: LOAD_TOKENS_OPERATION, signal }),
});

export function useTokens() {
  return useQuery(tokensQueryOptions);
}
