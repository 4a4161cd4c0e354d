import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { startSession } from '#web/lib/session-store';

export const GOOGLE_LOGIN_OPERATION = 'Google sign-in';

/**
 * Signs in with Google's credential exactly as a password login does (token stored, expiry
 * monitoring, /login redirects to /todos). A failure is logged and left in the mutation's error
 * for the login page's banner (docs/product.md, Google sign-in; Differences, item 4).
 */
export function useGoogleLogin() {
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
  });
}
