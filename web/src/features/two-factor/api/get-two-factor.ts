import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const LOAD_TWO_FACTOR_OPERATION = msg`Load two-factor settings failed`;

/** Whether sign-in asks for a two-factor code, since when, and the recovery codes left. */
const twoFactorQueryOptions = queryOptions({
  queryKey: queryKeys.twoFactor,
  queryFn: ({ signal }) => api.twoFactor.status({ operation: LOAD_TWO_FACTOR_OPERATION, signal }),
});

export function useTwoFactor() {
  return useQuery(twoFactorQueryOptions);
}
