import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import type { Account } from '@tally/contract';
import { RECENT_AUTH_MINUTES } from '@tally/contract/constants';
import { Button } from '#web/components/Button';
import { Dialog } from '#web/components/Dialog';
import { TextField } from '#web/components/FormField';
import { errorMessage, fieldErrorOf } from '#web/lib/api-client';
import { setIdentityPrompt } from '#web/lib/reauthentication';
import { PasskeyCancelled, passkeysSupported } from '#web/lib/webauthn';
import { usePasskeys } from '../api/get-passkeys';
import { REAUTHENTICATE_OIDC_OPERATION, useReauthenticateOidc } from '../api/oidc';
import { useReauthenticate } from '../api/reauthenticate';
import { useReauthenticateWithPasskey } from '../api/reauthenticate-with-passkey';
import { GOOGLE_CLIENT_FAILURE, type GoogleButton } from './google-button';

interface IdentityPromptDialogProps {
  account: Account;
  GoogleButton: GoogleButton;
  /** OIDC_NAME when single sign-on is configured (GET /api/config), else null. */
  oidcName: string | null;
}

/**
 * Asked for by lib/api-client.ts when a change in Settings answers reauthentication_required:
 * the password (or Continue with Google for an account without one), or one of the account's
 * passkeys, then the change is sent again. Cancel leaves it undone. A refused password is a
 * sentence beside the field.
 */
export function IdentityPromptDialog({
  account,
  GoogleButton,
  oidcName,
}: IdentityPromptDialogProps) {
  const { t, i18n } = useLingui();
  const title = t`Confirm it’s you`;
  const reauthenticate = useReauthenticate();
  const withPasskey = useReauthenticateWithPasskey();
  const passkeys = usePasskeys();
  const canUsePasskey = passkeysSupported() && (passkeys.data?.length ?? 0) > 0;
  const viaOidc = useReauthenticateOidc();
  // A sign-in at the provider leaves the page: it comes back here, to make the change again.
  const oidcChoice =
    oidcName !== null && account.oidcLinked === true ? (
      <div className="mt-4 max-w-sm space-y-2">
        <p>
          {account.hasPassword || account.googleLinked ? (
            <Trans>
              Or sign in with {oidcName} again; you come back to this page to make the change.
            </Trans>
          ) : (
            <Trans>
              Sign in with {oidcName} again; you come back to this page to make the change.
            </Trans>
          )}
        </p>
        <Button
          variant="secondary"
          className="w-full"
          disabled={viaOidc.isPending}
          onClick={() => viaOidc.mutate(window.location.pathname)}
        >
          {viaOidc.isPending ? t`Opening ${oidcName}...` : t`Continue with ${oidcName}`}
        </Button>
        {viaOidc.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {errorMessage(viaOidc.error, REAUTHENTICATE_OIDC_OPERATION)}
          </p>
        )}
      </div>
    ) : null;
  const { reset } = reauthenticate;
  const { reset: resetPasskey } = withPasskey;
  const [open, setOpen] = useState(false);
  const [googleFailed, setGoogleFailed] = useState(false);
  const settle = useRef<((proved: boolean) => void) | null>(null);
  const formId = useId();
  const errorId = useId();

  useEffect(
    () =>
      setIdentityPrompt(
        () =>
          new Promise<boolean>((resolve) => {
            settle.current?.(false);
            settle.current = resolve;
            reset();
            resetPasskey();
            setGoogleFailed(false);
            setOpen(true);
          }),
      ),
    [reset, resetPasskey],
  );
  // A prompt left open when Settings goes away counts as cancelled.
  useEffect(() => () => settle.current?.(false), []);

  const finish = (proved: boolean) => {
    setOpen(false);
    settle.current?.(proved);
    settle.current = null;
  };

  const prove = (body: { password: string } | { googleToken: string }) => {
    setGoogleFailed(false);
    reauthenticate.mutate(body, { onSuccess: () => finish(true) });
  };

  const provePasskey = () => {
    reset();
    setGoogleFailed(false);
    withPasskey.mutate(undefined, { onSuccess: () => finish(true) });
  };

  const passkeyError =
    withPasskey.isError && !(withPasskey.error instanceof PasskeyCancelled)
      ? errorMessage(withPasskey.error, msg`Confirm it is you failed`)
      : null;
  const error = reauthenticate.isError
    ? (fieldErrorOf(reauthenticate.error, 'password') ??
      errorMessage(reauthenticate.error, msg`Confirm it is you failed`))
    : googleFailed
      ? i18n._(GOOGLE_CLIENT_FAILURE)
      : null;

  const minutes = RECENT_AUTH_MINUTES;
  return (
    <Dialog
      open={open}
      title={title}
      onClose={() => finish(false)}
      actions={
        <>
          <Button variant="secondary" onClick={() => finish(false)}>
            <Trans>Cancel</Trans>
          </Button>
          {account.hasPassword && (
            <Button type="submit" form={formId} disabled={reauthenticate.isPending}>
              {reauthenticate.isPending ? t`Checking...` : t`Continue`}
            </Button>
          )}
        </>
      }
    >
      <p>
        <Trans>
          This change needs you to confirm who you are: it is allowed for {minutes} minutes
          afterwards.
        </Trans>
      </p>
      {account.hasPassword ? (
        <form
          id={formId}
          aria-label={title}
          className="mt-4"
          onSubmit={(event) => {
            event.preventDefault();
            prove({ password: String(new FormData(event.currentTarget).get('password') ?? '') });
          }}
        >
          <TextField
            label={t`Password`}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            data-autofocus
            // The refusal goes once the password is edited.
            onChange={() => {
              if (reauthenticate.isError) reset();
            }}
            aria-invalid={error !== null}
            aria-describedby={error ? errorId : undefined}
          />
          {error && (
            <p id={errorId} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
              {error}
            </p>
          )}
        </form>
      ) : !account.googleLinked ? null : (
        <div className="mt-4 max-w-sm space-y-2">
          <p>
            <Trans>Your account has no password: continue with Google.</Trans>
          </p>
          <GoogleButton
            onCredential={(googleToken) => prove({ googleToken })}
            onFailure={() => {
              console.warn('Confirming with Google failed: no credential from Google');
              reset();
              setGoogleFailed(true);
            }}
            pending={reauthenticate.isPending}
            pendingText={t`Checking...`}
          />
          {error && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              {error}
            </p>
          )}
        </div>
      )}
      {canUsePasskey && (
        <div className="mt-4 space-y-2">
          <Button variant="secondary" onClick={provePasskey} disabled={withPasskey.isPending}>
            {withPasskey.isPending ? t`Waiting for your passkey...` : t`Use a passkey`}
          </Button>
          {passkeyError && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              {passkeyError}
            </p>
          )}
        </div>
      )}
      {oidcChoice}
    </Dialog>
  );
}
