import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { startSession } from '#web/lib/session-store';

export const GOOGLE_LOGIN_OPERATION = 'Google sign-in';

/**
 * Signs in with Google's credential exactly as a password login does (token stored, expiry
 * monitoring, /login redirects to /todos). A failure is logged and left in the mutation's error
 * for the login page's banner (docs/product.md, Google sign-in; Differences, item 4). Every
 * attempt spends the browser's nonce cookie, so a new nonce is fetched after it (Google's button
 * is then set up again with it).
 */
export function useGoogleLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (credential: string) => {
      const { accessToken } = await api.auth.google({
        body: { token: credential },
        operation: GOOGLE_LOGIN_OPERATION,
      });
      startSession(accessToken);
    },
    onError: (error) => {
      console.error('Google login failed', error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.googleNonce }),
  });
}
