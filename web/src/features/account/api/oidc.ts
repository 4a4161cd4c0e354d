import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Account } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** The browser leaves for the provider; the server's callback brings it back. */
const goTo = (url: string) => window.location.assign(url);

const LINK_OIDC_OPERATION = msg`Link single sign-on failed`;
export const REAUTHENTICATE_OIDC_OPERATION = msg`Confirm it is you failed`;

/**
 * Links the provider's account: needs a recent proof of identity (the API client asks for it),
 * then the provider's sign-in, which comes back to /settings?oidc=linked (or ?oidc_error=).
 */
export function useLinkOidc() {
  return useMutation({
    mutationFn: async () => goTo((await api.oidc.link({ operation: LINK_OIDC_OPERATION })).url),
    meta: { operation: LINK_OIDC_OPERATION },
  });
}

const UNLINK_OPERATION = msg`Unlink single sign-on failed`;

/** Unlinks the provider; signing in then needs the password (or Google). */
export function useUnlinkOidc() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.oidc.unlink({ operation: UNLINK_OPERATION }),
    onSuccess: () => {
      queryClient.setQueryData<Account>(queryKeys.account, (account) =>
        account ? { ...account, oidcLinked: false } : account,
      );
    },
    meta: { operation: UNLINK_OPERATION },
  });
}

/**
 * Proves identity with a fresh sign-in at the provider, for an account that signs in with it:
 * the browser comes back to `returnTo` (this page), where the change is made again.
 */
export function useReauthenticateOidc() {
  return useMutation({
    mutationFn: async (returnTo: string) =>
      goTo(
        (
          await api.oidc.reauthenticate({
            body: { returnTo },
            operation: REAUTHENTICATE_OIDC_OPERATION,
          })
        ).url,
      ),
  });
}
