import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const LOAD_PASSKEYS_OPERATION = msg`Load passkeys failed`;

/** The account's passkeys, oldest first. */
const passkeysQueryOptions = queryOptions({
  queryKey: queryKeys.accountPasskeys,
  queryFn: ({ signal }) => api.passkeys.list({ operation: LOAD_PASSKEYS_OPERATION, signal }),
});

export function usePasskeys() {
  return useQuery(passkeysQueryOptions);
}
