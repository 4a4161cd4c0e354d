import { useLingui } from '@lingui/react/macro';
import { GoogleLogin, GoogleOAuthProvider } from '@react-oauth/google';
import { useLayoutEffect, useRef, useState } from 'react';
import { useGoogleNonce } from '../api/get-google-nonce';
import {
  GOOGLE_REASONS,
  GOOGLE_SDK_MESSAGES,
  type GoogleSignInProps,
  PlaceholderButton,
} from './GooglePlaceholder';

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
export function GoogleIdentityButton({
  clientId,
  onCredential,
  onFailure,
  pending = false,
  oneTap = true,
  pendingText,
}: GoogleSignInProps & { clientId: string }) {
  const { t } = useLingui();
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
          {pendingText ?? t`Signing in with Google...`}
        </p>
      )}
    </GoogleOAuthProvider>
  );
}
