import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';

export const REQUEST_RESET_OPERATION = msg`Password reset request failed`;

/** Asks for a reset link; the server answers the same whether or not the address is known. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) =>
      api.auth.requestPasswordReset({ body: { email }, operation: REQUEST_RESET_OPERATION }),
  });
}
