import { GoogleLogin, GoogleOAuthProvider } from '@react-oauth/google';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '#web/components/Button';
import { useConfig } from '../api/get-config';
import { useGoogleNonce } from '../api/get-google-nonce';

const GOOGLE_BUTTON_TEXT = 'Continue with Google';
/** The console messages about Google's script (docs/product.md, Google sign-in). */
export const GOOGLE_SDK_MESSAGES = {
  loaded: 'Google SDK loaded',
  failed: 'Google SDK failed to load',
} as const;

/** Google's button: standard, outline, large, 40 px high (docs/product.md, Google sign-in). */
const GOOGLE_BUTTON_OPTIONS = {
  type: 'standard',
  theme: 'outline',
  size: 'large',
  text: 'continue_with',
  shape: 'rectangular',
  logo_alignment: 'center',
} as const;
/** Google renders its button between 200 and 400 px wide. */
const GOOGLE_BUTTON_WIDTH = { min: 200, max: 400 } as const;

export const GOOGLE_REASONS = {
  notConfigured: 'Google sign-in is not configured',
  scriptFailed: 'Google sign-in could not be loaded',
  configUnavailable: 'Google sign-in is unavailable right now',
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
  reason?: string | null;
  busy?: boolean;
  className?: string;
}

/** Our own stand-in for Google's button: disabled, saying why (or busy while things load). */
function PlaceholderButton({ reason = null, busy = false, className = '' }: PlaceholderProps) {
  const reasonId = useId();
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
        {GOOGLE_BUTTON_TEXT}
      </Button>
      {reason && (
        <p id={reasonId} className="mt-2 text-center text-xs text-slate-600 dark:text-slate-400">
          {reason}
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

type ScriptState = 'loading' | 'loaded' | 'failed';

/**
 * Google's own button and One Tap, through @react-oauth/google: it loads Google's Identity
 * Services script once mounted (so only when a client id is configured) and renders the button
 * into its container. Until the script and the server's nonce are there our placeholder covers
 * the container, and if either cannot be had the placeholder stays, disabled, with the reason.
 *
 * The nonce goes to `GoogleLogin`'s `nonce` (Google's `initialize` config, shared by the button
 * and One Tap; the provider's `nonce` is the script tag's CSP nonce, another thing). The library
 * passes it to `initialize` only when it sets Google up, so a new nonce mounts it afresh (`key`).
 */
function GoogleIdentityButton({
  clientId,
  onCredential,
  onFailure,
  pending = false,
  oneTap = true,
  pendingText = 'Signing in with Google...',
}: GoogleSignInProps & { clientId: string }) {
  const [script, setScript] = useState<ScriptState>('loading');
  const nonceQuery = useGoogleNonce();
  const nonce = nonceQuery.data?.nonce;
  const containerRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | undefined>(undefined);

  // Google's button takes a fixed pixel width: give it the card's, measured before it renders.
  useLayoutEffect(() => {
    const available = Math.floor(containerRef.current?.clientWidth ?? 0);
    if (available >= GOOGLE_BUTTON_WIDTH.min) {
      setWidth(Math.min(available, GOOGLE_BUTTON_WIDTH.max));
    }
  }, []);

  return (
    <GoogleOAuthProvider
      clientId={clientId}
      onScriptLoadSuccess={() => {
        console.log(GOOGLE_SDK_MESSAGES.loaded);
        setScript('loaded');
      }}
      onScriptLoadError={() => {
        console.error(GOOGLE_SDK_MESSAGES.failed);
        setScript('failed');
      }}
    >
      {script === 'failed' ? (
        <PlaceholderButton reason={GOOGLE_REASONS.scriptFailed} />
      ) : nonce === undefined && nonceQuery.isError ? (
        <PlaceholderButton reason={GOOGLE_REASONS.configUnavailable} />
      ) : (
        <div
          ref={containerRef}
          className="relative"
          aria-busy={script === 'loading' || nonce === undefined || pending}
        >
          {nonce === undefined ? (
            // The 40 px Google's container takes, held until there is a nonce to set it up with.
            <div className="h-10" />
          ) : (
            <GoogleLogin
              key={nonce}
              nonce={nonce}
              {...GOOGLE_BUTTON_OPTIONS}
              width={width}
              useOneTap={oneTap}
              onSuccess={({ credential }) => {
                if (credential) onCredential(credential);
                else onFailure();
              }}
              onError={onFailure}
              containerProps={{
                className:
                  'flex justify-center' + (pending ? ' pointer-events-none opacity-60' : ''),
              }}
            />
          )}
          {(script === 'loading' || nonce === undefined) && (
            <PlaceholderButton busy className="absolute inset-0 bg-white dark:bg-slate-900" />
          )}
        </div>
      )}
      {pending && (
        <p role="status" className="mt-2 text-center text-xs text-slate-600 dark:text-slate-400">
          {pendingText}
        </p>
      )}
    </GoogleOAuthProvider>
  );
}

/**
 * "Continue with Google" on /login. The client id comes from GET /api/config at runtime; without
 * one the button is shown disabled with the reason, and nothing is loaded from Google.
 */
export function GoogleSignInButton(props: GoogleSignInProps) {
  const config = useConfig();
  if (config.isError) return <PlaceholderButton reason={GOOGLE_REASONS.configUnavailable} />;
  if (config.isPending) return <PlaceholderButton busy />;
  const { googleClientId } = config.data;
  if (googleClientId === null) return <PlaceholderButton reason={GOOGLE_REASONS.notConfigured} />;
  return <GoogleIdentityButton clientId={googleClientId} {...props} />;
}
