import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MfaRequiredResponse } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { startSession } from '#web/lib/session-store';

export const GOOGLE_LOGIN_OPERATION = msg`Google sign-in failed`;

/**
 * Signs in with Google's credential exactly as a password login does (token stored, expiry
 * monitoring, /login redirects to /todos). A failure is logged and left in the mutation's error
 * for the login page's banner (docs/product.md, Google sign-in; Differences, item 4). Every
 * attempt spends the browser's nonce cookie, so a new nonce is fetched after it (Google's button
 * is then set up again with it). An account with two-factor codes on answers the second step.
 */
export function useGoogleLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (credential: string): Promise<MfaRequiredResponse | null> => {
      const answer = await api.auth.google({
        body: { token: credential },
        operation: GOOGLE_LOGIN_OPERATION,
      });
      // Two-factor codes on, and Google did not say it asked a second factor: the login page asks.
      if ('mfaRequired' in answer) return answer;
      startSession(answer.accessToken);
      return null;
    },
    onError: (error) => {
      console.error('Google login failed', error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.googleNonce }),
  });
}
