import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { startSession } from '#web/lib/session-store';

export const OIDC_START_OPERATION = msg`Single sign-on failed`;
export const OIDC_FINISH_OPERATION = msg`Sign-in failed`;

/** The browser leaves for the provider (a real navigation: its cookies and login page). */
const goTo = (url: string) => window.location.assign(url);

/**
 * Continue with {OIDC_NAME}: POST /api/auth/oidc/start sets this browser's flow cookie and answers
 * the provider's authorization URL, which the browser then opens. The provider sends it back to
 * the server's callback, which lands on /login?oidc=signed-in (see useFinishOidcSignIn).
 */
export function useOidcStart() {
  return useMutation({
    mutationFn: async () => {
      const { url } = await api.oidc.start({ operation: OIDC_START_OPERATION });
      goTo(url);
    },
  });
}

/**
 * The callback set the refresh cookie of the new session (as a password sign-in does) but cannot
 * hand the page an access token: the page asks POST /api/auth/refresh for one, as at any renewal.
 */
export function useFinishOidcSignIn() {
  return useMutation({ mutationFn: finishOnce });
}

/**
 * One refresh per page load, however often the page mounts (React's development double mount):
 * a refresh token presented twice counts as stolen and ends the session.
 */
let finishing: Promise<void> | null = null;
function finishOnce(): Promise<void> {
  finishing ??= (async () => {
    const answer = await api.auth.refresh({ operation: OIDC_FINISH_OPERATION });
    startSession(answer.accessToken, {
      passwordChangeRequired: answer.passwordChangeRequired === true,
    });
  })().finally(() => {
    finishing = null;
  });
  return finishing;
}
