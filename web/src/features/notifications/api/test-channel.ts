import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';

const OPERATION = msg`Send a test failed`;

/** Sends a test message now; the answer says what the receiver answered. */
export function useTestChannel() {
  return useMutation({
    mutationFn: (id: number) => api.notifications.test({ params: { id }, operation: OPERATION }),
    meta: { operation: OPERATION },
  });
}
