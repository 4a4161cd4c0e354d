import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorDisableBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { reloadEnded } from '#web/lib/end-other-access';

const OPERATION = msg`Turn off two-factor codes failed`;

/**
 * Turns the codes off with a current code or the password (shown beside its field if wrong),
 * ending the other sessions, tokens and feed when asked.
 */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TwoFactorDisableBody) =>
      api.twoFactor.disable({ body, operation: OPERATION }),
    onSuccess: (_answer, body) => reloadEnded(queryClient, body),
    meta: { invalidates: [queryKeys.twoFactor] },
  });
}
