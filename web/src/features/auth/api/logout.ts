import { useMutation } from '@tanstack/react-query';
import { navigate } from 'wouter/use-browser-location';
import { apiRequest } from '../../../lib/api-client';
import { endSession } from '../../../lib/session-store';

/** POST /api/auth/logout: revokes the refresh cookie. */
export function logout(): Promise<undefined> {
  return apiRequest<undefined>('/api/auth/logout', { method: 'POST', operation: 'Logout' });
}

/**
 * Logs out and goes to / (SPEC.md section 2). The cookie is revoked first, so that its clearing
 * cannot race a new login; when the server cannot be reached the browser signs out anyway.
 */
export function useLogout() {
  return useMutation({
    mutationFn: async () => {
      try {
        await logout();
      } catch (error) {
        console.warn('Logout request failed; signing out locally', error);
      }
      endSession();
      navigate('/');
    },
  });
}
