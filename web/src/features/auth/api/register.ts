import { useMutation } from '@tanstack/react-query';
import type { AccessTokenResponse, RegisterBody } from '@tally/contract';
import { apiRequest } from '../../../lib/api-client';
import { startSession } from '../../../lib/session-store';

export const REGISTER_OPERATION = 'Registration';

/** POST /api/auth/register */
export function register(body: RegisterBody): Promise<AccessTokenResponse> {
  return apiRequest<AccessTokenResponse, RegisterBody>('/api/auth/register', {
    method: 'POST',
    body,
    operation: REGISTER_OPERATION,
  });
}

/** Creates the account and signs it in. */
export function useRegister() {
  return useMutation({
    mutationFn: async (body: RegisterBody) => {
      const { accessToken } = await register(body);
      startSession(accessToken);
    },
  });
}
