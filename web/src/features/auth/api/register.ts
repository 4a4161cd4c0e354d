import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import type { RegisterBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { refusalOfField } from '#web/lib/api-client';
import { startSession } from '#web/lib/session-store';

export const REGISTER_OPERATION = msg`Registration failed`;

/** Creates the account and signs it in. */
export function useRegister() {
  return useMutation({
    mutationFn: async (body: RegisterBody) => {
      const answer = api.auth.register({ body, operation: REGISTER_OPERATION });
      // A wrong setup token is a 403 about that one field: shown beside it.
      const { accessToken } = await (body.setupToken === undefined
        ? answer
        : answer.catch(refusalOfField('setupToken', [403])));
      startSession(accessToken);
    },
  });
}
