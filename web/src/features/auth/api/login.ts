import { useMutation } from '@tanstack/react-query';
import type { AccessTokenResponse, LoginBody } from '@tally/contract';
import { apiRequest } from '../../../lib/api-client';
import { startSession } from '../../../lib/session-store';

export const LOGIN_OPERATION = 'Login';

/** POST /api/auth/login */
export function login(body: LoginBody): Promise<AccessTokenResponse> {
  return apiRequest<AccessTokenResponse, LoginBody>('/api/auth/login', {
    method: 'POST',
    body,
    operation: LOGIN_OPERATION,
  });
}

/** Signs in; the stored token makes /login redirect to /todos. */
export function useLogin() {
  return useMutation({
    mutationFn: async (body: LoginBody) => {
      const { accessToken } = await login(body);
      startSession(accessToken);
    },
  });
}
