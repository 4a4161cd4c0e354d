import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { GOOGLE_LOGIN_OPERATION } from './google-login';

/** Asked again this often: the server keeps the nonce cookie 10 minutes after each ask. */
const NONCE_REFRESH_MS = 5 * 60_000;

/**
 * The nonce Google puts into the ID token (docs/product.md, Google sign-in). GET
 * /api/auth/google/nonce sets the httpOnly cookie it is bound to and answers the same nonce
 * while that cookie lives, so asking again every few minutes keeps it alive without changing
 * it. Each sign-in attempt spends the cookie: useGoogleLogin refetches afterwards.
 */
const googleNonceQueryOptions = queryOptions({
  queryKey: queryKeys.googleNonce,
  queryFn: ({ signal }) => api.auth.googleNonce({ operation: GOOGLE_LOGIN_OPERATION, signal }),
  staleTime: NONCE_REFRESH_MS,
  refetchInterval: NONCE_REFRESH_MS,
});

export function useGoogleNonce() {
  return useQuery(googleNonceQueryOptions);
}
