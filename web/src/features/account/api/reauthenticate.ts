import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import type { ReauthenticateBody } from '@tally/contract';
import { api } from '#web/lib/api';

const OPERATION = msg`Confirm it is you failed`;

/**
 * Proves the password (or a fresh Google sign-in) again, for a sensitive change that answered
 * reauthentication_required; the dialog shows a refusal beside its field.
 */
export function useReauthenticate() {
  return useMutation({
    mutationFn: (body: ReauthenticateBody) =>
      api.account.reauthenticate({ body, operation: OPERATION }),
  });
}
