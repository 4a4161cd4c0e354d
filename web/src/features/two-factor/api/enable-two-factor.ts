import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorConfirmBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { reloadEnded } from '#web/lib/end-other-access';

const OPERATION = msg`Turn on two-factor codes failed`;

/**
 * Turns the codes on with the app's first code (and ends the other sessions, tokens and feed
 * when asked); answers the recovery codes, shown once. A wrong code is shown beside its field by
 * the section, not in a notice.
 */
export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TwoFactorConfirmBody) =>
      api.twoFactor.enable({ body, operation: OPERATION }),
    onSuccess: (_answer, body) => reloadEnded(queryClient, body),
    meta: { invalidates: [queryKeys.twoFactor] },
  });
}
