import { useMutation } from '@tanstack/react-query';
import type { TwoFactorDisableBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = 'Turn off two-factor codes';

/** Turns the codes off with a current code or the password (shown beside its field if wrong). */
export function useDisableTwoFactor() {
  return useMutation({
    mutationFn: (body: TwoFactorDisableBody) =>
      api.twoFactor.disable({ body, operation: OPERATION }),
    meta: { invalidates: [queryKeys.twoFactor] },
  });
}
