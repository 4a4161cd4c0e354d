import { msg } from '@lingui/core/macro';
import { api } from '#web/lib/api';
import { startSession } from '#web/lib/session-store';
import { getPasskey } from '#web/lib/webauthn';

export { PasskeyCancelled, PasskeyUnavailableHere } from '#web/lib/webauthn';

export const PASSKEY_LOGIN_OPERATION = msg`Passkey sign-in failed`;

/**
 * Signs in with a passkey exactly as a password login does (token stored, /login redirects to
 * /todos): the server's options, the browser's passkey prompt (or, with `autofill`, the username
 * field's suggestions), then the server's check. A passkey is a complete sign-in: no second step.
 */
export async function signInWithPasskey(autofill: boolean): Promise<void> {
  const options = await api.passkeys.signInOptions({ operation: PASSKEY_LOGIN_OPERATION });
  const response = await getPasskey(options, { autofill });
  const answer = await api.passkeys.signIn({
    body: { response },
    operation: PASSKEY_LOGIN_OPERATION,
  });
  startSession(answer.accessToken, {
    passwordChangeRequired: answer.passwordChangeRequired === true,
  });
}
