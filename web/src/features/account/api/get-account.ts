import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const LOAD_ACCOUNT_OPERATION = msg`Load account failed`;

/** The signed-in account: username, e-mail and whether it is verified, password, Google. */
const accountQueryOptions = queryOptions({
  queryKey: queryKeys.account,
  queryFn: ({ signal }) => api.account.get({ operation: LOAD_ACCOUNT_OPERATION, signal }),
});

export function useAccount() {
  return useQuery(accountQueryOptions);
}
