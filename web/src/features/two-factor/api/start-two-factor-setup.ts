import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';

const OPERATION = msg`Set up two-factor codes failed`;

/** A new secret and its QR code, waiting for the app's first code (nothing changes yet). */
export function useStartTwoFactorSetup() {
  return useMutation({
    mutationFn: () => api.twoFactor.setup({ operation: OPERATION }),
    meta: { operation: OPERATION },
  });
}
