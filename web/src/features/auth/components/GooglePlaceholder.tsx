import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
/**
 * Our stand-in for Google's button and the sentences around it, in the first download of /login;
 * Google's own button (GoogleIdentityButton.tsx, with @react-oauth/google) loads only where a client
 * id is configured.
 */
import { useId } from 'react';
import { Button } from '#web/components/Button';

/** The console messages about Google's script (docs/product.md, Google sign-in). */
export const GOOGLE_SDK_MESSAGES = {
  loaded: 'Google SDK loaded',
  failed: 'Google SDK failed to load',
} as const;

export const GOOGLE_REASONS = {
  notConfigured: msg`Google sign-in is not configured`,
  scriptFailed: msg`Google sign-in could not be loaded`,
  configUnavailable: msg`Google sign-in is unavailable right now`,
} as const;

function GoogleLogo() {
  return (
    <svg viewBox="0 0 48 48" width="18" height="18" aria-hidden="true">
      <path
        fill="#EA4335"
        d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"
      />
      <path
        fill="#FBBC05"
        d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
      />
    </svg>
  );
}

interface PlaceholderProps {
  reason?: MessageDescriptor | null;
  busy?: boolean;
  className?: string;
}

/** Our own stand-in for Google's button: disabled, saying why (or busy while things load). */
export function PlaceholderButton({
  reason = null,
  busy = false,
  className = '',
}: PlaceholderProps) {
  const reasonId = useId();
  const { i18n } = useLingui();
  return (
    <div className={className}>
      <Button
        variant="secondary"
        disabled
        aria-describedby={reason ? reasonId : undefined}
        aria-busy={busy}
        // Google's button is a 40 px high block: the stand-in takes its exact place.
        className="flex h-10 w-full gap-3 py-0 disabled:opacity-70"
      >
        <GoogleLogo />
        <Trans>Continue with Google</Trans>
      </Button>
      {reason && (
        <p id={reasonId} className="mt-2 text-center text-xs text-slate-600 dark:text-slate-400">
          {i18n._(reason)}
        </p>
      )}
    </div>
  );
}

export interface GoogleSignInProps {
  /** Google handed over an ID-token credential. */
  onCredential: (credential: string) => void;
  /** Google's client reported a failure without a credential. */
  onFailure: () => void;
  /** The credential is being checked by the server. */
  pending?: boolean;
  /** Google's One Tap prompt too (sign-in); off where a credential confirms an action. */
  oneTap?: boolean;
  /** Announced while the credential is checked. */
  pendingText?: string;
}
