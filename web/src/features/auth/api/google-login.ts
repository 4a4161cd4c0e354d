import { useMutation } from '@tanstack/react-query';
import type { AccessTokenResponse, GoogleLoginBody } from '@tally/contract';
import { apiRequest } from '../../../lib/api-client';
import { startSession } from '../../../lib/session-store';

export const GOOGLE_LOGIN_OPERATION = 'Google sign-in';

/** POST /api/auth/google: the ID-token credential from Google Identity Services. */
export function googleLogin(body: GoogleLoginBody): Promise<AccessTokenResponse> {
  return apiRequest<AccessTokenResponse, GoogleLoginBody>('/api/auth/google', {
    method: 'POST',
    body,
    operation: GOOGLE_LOGIN_OPERATION,
  });
}

/**
 * Signs in with Google's credential exactly as a password login does (token stored, expiry
 * monitoring, /login redirects to /todos). A failure is logged (SPEC.md section 8) and left in
 * the mutation's error for the login page's banner (DECISIONS.md item 4).
 */
export function useGoogleLogin() {
  return useMutation({
    mutationFn: async (credential: string) => {
      const { accessToken } = await googleLogin({ token: credential });
      startSession(accessToken);
    },
    onError: (error) => {
      console.error('Google login failed', error);
    },
  });
}
