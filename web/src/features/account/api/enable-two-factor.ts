import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = 'Turn on two-factor codes';

/**
 * Turns the codes on with the app's first code; answers the recovery codes, shown once. A wrong
 * code is shown beside its field by the section, not in a notice.
 */
export function useEnableTwoFactor() {
  return useMutation({
    mutationFn: (code: string) => api.twoFactor.enable({ body: { code }, operation: OPERATION }),
    meta: { invalidates: [queryKeys.twoFactor] },
  });
}
