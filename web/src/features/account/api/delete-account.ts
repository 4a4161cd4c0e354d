import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteAccountBody } from '@tally/contract';
import { navigate } from 'wouter/use-browser-location';
import { api } from '#web/lib/api';
import { showNotice } from '#web/lib/notices';
import { queryKeys } from '#web/lib/query-keys';
import { endSession } from '#web/lib/session-store';

const OPERATION = msg`Delete account failed`;
const ACCOUNT_DELETED = msg`Your account is deleted`;

/**
 * Deletes the account for good, then signs out like Logout: the refresh cookie is cleared (its
 * session already ended with the account), the browser's session ends and the page goes to /.
 * A Google credential spends the browser's Google nonce: a refused one gets Google's button a
 * new nonce.
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: DeleteAccountBody) => {
      await api.account.remove({ body, operation: OPERATION });
      try {
        await api.auth.logout({ operation: msg`Logout failed` });
      } catch (error) {
        console.warn('Clearing the refresh cookie failed; signing out locally', error);
      }
      endSession();
      navigate('/');
      showNotice(i18n._(ACCOUNT_DELETED), { tone: 'info', durationMs: 8000 });
    },
    onError: (_error, body) => {
      if (body.googleToken !== undefined) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.googleNonce });
      }
    },
    // A wrong password is said beside the field (DangerZoneSection), not in a notice.
    meta: { operation: OPERATION, fieldErrors: ['password'] },
  });
}
