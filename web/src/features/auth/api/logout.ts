import { useMutation } from '@tanstack/react-query';
import { navigate } from 'wouter/use-browser-location';
import { api } from '#web/lib/api';
import { endSession } from '#web/lib/session-store';

/**
 * Logs out and goes to / (docs/product.md, Navigation). The cookie is revoked first, so that its clearing
 * cannot race a new login; when the server cannot be reached the browser signs out anyway.
 */
export function useLogout() {
  return useMutation({
    mutationFn: async () => {
      try {
        await api.auth.logout({ operation: 'Logout' });
      } catch (error) {
        console.warn('Logout request failed; signing out locally', error);
      }
      endSession();
      navigate('/');
    },
  });
}
