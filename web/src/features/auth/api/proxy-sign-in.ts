import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import { ApiError } from '#web/lib/api-client';
import { api } from '#web/lib/api';
import { startSession } from '#web/lib/session-store';

export const PROXY_SIGN_IN_OPERATION = msg`Sign-in failed`;

/**
 * Behind a forward-auth proxy (GET /api/config authProxy): POST /api/auth/proxy turns the
 * proxy's sign-in into a session as a password login would. Resolves false when the proxy named
 * nobody (401), so the page simply shows its form.
 */
export function useProxySignIn() {
  return useMutation({
    mutationFn: async (): Promise<boolean> => {
      try {
        const answer = await api.auth.proxySignIn({ operation: PROXY_SIGN_IN_OPERATION });
        startSession(answer.accessToken, {
          passwordChangeRequired: answer.passwordChangeRequired === true,
        });
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return false;
        throw error;
      }
    },
  });
}
