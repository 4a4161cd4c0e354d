import { useLingui } from '@lingui/react/macro';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Button } from '#web/components/Button';
import { errorMessage } from '#web/lib/api-client';
import {
  PASSKEY_LOGIN_OPERATION,
  PasskeyCancelled,
  PasskeyUnavailableHere,
  signInWithPasskey,
} from '../api/passkey-login';

/**
 * Passkeys on /login, in a chunk of its own (LoginPage.tsx loads it with lazy()) so the first
 * download of every page stays within scripts/check-bundle-size.mjs's budgets.
 */
interface PasskeySignInProps {
  /**
   * The page shows a username field that offers passkeys (`autocomplete="username webauthn"`):
   * the suggestions need one, and without it the browser refuses the request outright.
   */
  autofill: boolean;
  /** Another sign-in runs. */
  disabled: boolean;
  /** A passkey sign-in starts: the page clears the other ways' messages. */
  onStart: () => void;
  /** The sentence for the page's error banner (a closed prompt says nothing). */
  onError: (message: string) => void;
  onPendingChange: (pending: boolean) => void;
}

const AUTOFILL_ATTEMPTS = 3;

const report = (error: unknown, onError: (message: string) => void) => {
  if (error instanceof PasskeyCancelled) return;
  console.warn('Passkey sign-in failed', error);
  onError(errorMessage(error, PASSKEY_LOGIN_OPERATION));
};

/**
 * "Sign in with a passkey" (the browser's prompt), and while the page is open the username
 * field's passkey suggestions (conditional UI; the field says `autocomplete="username webauthn"`):
 * picking one signs in the same way.
 */
export function PasskeySignIn({
  autofill,
  disabled,
  onStart,
  onError,
  onPendingChange,
}: PasskeySignInProps) {
  const passkey = useMutation({ mutationFn: () => signInWithPasskey(false) });
  const { t } = useLingui();

  useEffect(() => {
    if (!autofill) return;
    let active = true;
    void (async () => {
      const { passkeyAutofillSupported } = await import('#web/lib/webauthn');
      if (!(await passkeyAutofillSupported()) || !active) return;
      // A refused passkey (say its challenge expired while the page stood open) arms the
      // suggestions again, a few times at most, so the next pick can work.
      for (let attempt = 0; attempt < AUTOFILL_ATTEMPTS && active; attempt += 1) {
        try {
          await signInWithPasskey(true);
          return;
        } catch (error) {
          // Leaving the page, or the button taking over, cancels the waiting request. At an
          // address passkeys cannot use, the suggestions are simply not offered: only the
          // button, pressed, says why (a banner nobody asked for would greet every visit).
          if (!active || error instanceof PasskeyCancelled) return;
          if (error instanceof PasskeyUnavailableHere) {
            console.info('Passkey suggestions are off at this address', error.message);
            return;
          }
          report(error, onError);
        }
      }
    })();
    return () => {
      active = false;
      void import('#web/lib/webauthn').then((webauthn) => webauthn.cancelPasskeyRequest());
    };
    // Once per visit of the page: the request waits for the person as long as the page is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autofill]);

  useEffect(() => onPendingChange(passkey.isPending), [passkey.isPending, onPendingChange]);

  return (
    <Button
      variant="secondary"
      onClick={() => {
        onStart();
        passkey.mutate(undefined, { onError: (error) => report(error, onError) });
      }}
      disabled={disabled || passkey.isPending}
      className="mt-3 w-full"
    >
      {passkey.isPending ? t`Waiting for your passkey...` : t`Sign in with a passkey`}
    </Button>
  );
}
