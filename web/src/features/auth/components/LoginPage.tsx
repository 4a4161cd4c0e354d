import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { MfaRequiredResponse } from '@tally/contract';
import { OIDC_ERROR_PARAM } from '@tally/contract/constants';
import { Link, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { Button } from '#web/components/Button';
import { LoadingText } from '#web/components/LoadingText';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { Form, FormActions } from '#web/components/Form';
import { TextField } from '#web/components/FormField';
import { errorMessage } from '#web/lib/api-client';
import { oidcFailureSentence } from '#web/lib/oidc-failure';
import { sessionEndedForcibly } from '#web/lib/session-store';
import { GOOGLE_LOGIN_OPERATION, useGoogleLogin } from '../api/google-login';
import { useConfig } from '../api/get-config';
import { LOGIN_OPERATION, useLogin } from '../api/login';
import { PROXY_SIGN_IN_OPERATION, useProxySignIn } from '../api/proxy-sign-in';
import {
  OIDC_FINISH_OPERATION,
  OIDC_START_OPERATION,
  useFinishOidcSignIn,
  useOidcStart,
} from '../api/oidc-sign-in';
import { AuthCard, AuthSwitchLink, authLinkClass } from './AuthCard';
import { GoogleSignInButton } from './GoogleSignInButton';
import { OidcSignInButton } from './OidcSignInButton';

/** The second step, loaded only for an account with two-factor codes on. */
const SecondStepForm = lazy(() =>
  import('./SecondStepForm').then((module) => ({ default: module.SecondStepForm })),
);
/** Passkeys on /login, loaded after the page (PasskeySignIn.tsx says why). */
const PasskeySignIn = lazy(() =>
  import('./PasskeySignIn').then((module) => ({ default: module.PasskeySignIn })),
);
/** Whether the browser has WebAuthn (lib/webauthn.ts's passkeysSupported, without loading it). */
const passkeysSupported = () => typeof window.PublicKeyCredential === 'function';

/** The "or" between Google's button and the password form. */
function OrDivider() {
  return (
    <div className="my-6 flex items-center gap-3 text-sm text-slate-600 dark:text-slate-400">
      <span className="h-px flex-1 bg-slate-300 dark:bg-slate-600" aria-hidden="true" />
      <Trans>or</Trans>
      <span className="h-px flex-1 bg-slate-300 dark:bg-slate-600" aria-hidden="true" />
    </div>
  );
}

/** Google's client failed without a credential (rare: Google normally just closes its popup). */
const GOOGLE_CLIENT_FAILURE = msg`Google sign-in failed - please try again`;

type SecondStep = Pick<MfaRequiredResponse, 'mfaToken' | 'methods'>;

/**
 * A sign-in that came back by redirect (a provider's callback) and needs the second step opens
 * /login#mfa=<mfaToken>: the token is read once and taken out of the address bar and history.
 * Its methods are not in the URL: the app's code and recovery codes are offered.
 */
const MFA_FRAGMENT = /^#mfa=([A-Za-z0-9_-]{1,128})$/;

function secondStepFromUrl(): SecondStep | null {
  const token = MFA_FRAGMENT.exec(window.location.hash)?.[1];
  return token ? { mfaToken: token, methods: ['totp', 'recovery'] } : null;
}

/**
 * /login: username + password, Continue with Google, Continue with the operator's OpenID
 * provider (when configured), Sign in with a passkey (also offered in the username field's
 * autofill), the error banner, a link to register. One banner serves every way in; starting one
 * clears the others' messages. OIDC_ONLY (config passwordSignIn false) leaves the password form
 * out. The provider's sign-in comes back here: `?oidc=signed-in` (the refresh cookie is set:
 * fetch the access token), `?oidc_error={code}` (say why), or `#mfa=<token>` when the account
 * has two-factor codes on. That second step shows in the same card (a passkey sign-in needs
 * none: it is two factors in itself).
 */
export function LoginPage() {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const loginMutation = useLogin();
  const googleMutation = useGoogleLogin();
  const oidcStart = useOidcStart();
  const oidcFinish = useFinishOidcSignIn();
  const [googleClientFailed, setGoogleClientFailed] = useState(false);
  const [secondStep, setSecondStep] = useState<SecondStep | null>(secondStepFromUrl);
  useEffect(() => {
    // The token stays in the page's state only: not in the address bar, history or a bookmark.
    if (MFA_FRAGMENT.test(window.location.hash)) {
      window.history.replaceState(window.history.state, '', window.location.pathname);
    }
  }, []);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const [passkeyPending, setPasskeyPending] = useState(false);
  const search = new URLSearchParams(useSearch());
  const oidcResult = search.get('oidc');
  const oidcError = search.get(OIDC_ERROR_PARAM);
  const oidcName = config.data?.oidc?.name ?? null;
  const passwordSignIn = config.data?.passwordSignIn ?? true;
  const { mutate: finishOidc } = oidcFinish;
  const proxySignIn = useProxySignIn();
  const { mutate: signInThroughProxy } = proxySignIn;
  const authProxy = config.data?.authProxy ?? false;

  useEffect(() => {
    // Behind a forward-auth proxy the person has signed in already: turn that into a session.
    if (authProxy) signInThroughProxy();
  }, [authProxy, signInThroughProxy]);

  useEffect(() => {
    if (oidcResult === 'signed-in') finishOidc();
  }, [oidcResult, finishOidc]);

  const clearErrors = () => {
    loginMutation.reset();
    googleMutation.reset();
    oidcStart.reset();
    oidcFinish.reset();
    proxySignIn.reset();
    setGoogleClientFailed(false);
    setPasskeyError(null);
    // The provider's answer is read once: a reload should not repeat it.
    if (oidcResult !== null || oidcError !== null) navigate('/login', { replace: true });
  };

  const onGoogleCredential = (credential: string) => {
    clearErrors();
    googleMutation.mutate(credential, { onSuccess: (mfa) => setSecondStep(mfa) });
  };

  const onGoogleFailure = () => {
    console.error('Google login failed: no credential from Google');
    clearErrors();
    setGoogleClientFailed(true);
  };

  let error: string | null = null;
  if (oidcError !== null) {
    // Named once the settings are in; a moment without the banner beats a wrong name.
    error = config.isPending ? null : oidcFailureSentence(oidcError, oidcName);
  } else if (oidcStart.isError) error = errorMessage(oidcStart.error, OIDC_START_OPERATION);
  else if (oidcFinish.isError) error = errorMessage(oidcFinish.error, OIDC_FINISH_OPERATION);
  else if (proxySignIn.isError) error = errorMessage(proxySignIn.error, PROXY_SIGN_IN_OPERATION);
  else if (googleClientFailed) error = i18n._(GOOGLE_CLIENT_FAILURE);
  else if (googleMutation.isError)
    error = errorMessage(googleMutation.error, GOOGLE_LOGIN_OPERATION);
  else if (loginMutation.isError) error = errorMessage(loginMutation.error, LOGIN_OPERATION);
  else if (passkeyError) error = passkeyError;

  const submit = (data: FormData) => {
    clearErrors();
    loginMutation.mutate(
      {
        username: String(data.get('username') ?? ''),
        password: String(data.get('password') ?? ''),
      },
      { onSuccess: (mfa) => setSecondStep(mfa) },
    );
  };

  if (secondStep) {
    return (
      <AuthCard title={t`Two-factor code`}>
        <ErrorBanner message={passkeyError} onDismiss={clearErrors} className="mb-6" />
        <Suspense fallback={<LoadingText>{t`Loading...`}</LoadingText>}>
          <SecondStepForm
            mfaToken={secondStep.mfaToken}
            methods={secondStep.methods}
            onCancel={() => {
              clearErrors();
              setSecondStep(null);
            }}
          />
        </Suspense>
        {/* A passkey is two factors in itself: signing in with one replaces this step. */}
        {secondStep.methods.includes('passkey') && passkeysSupported() && (
          <Suspense fallback={null}>
            <PasskeySignIn
              autofill={false}
              disabled={passkeyPending}
              onStart={clearErrors}
              onError={setPasskeyError}
              onPendingChange={setPasskeyPending}
            />
          </Suspense>
        )}
      </AuthCard>
    );
  }

  const pending =
    loginMutation.isPending || googleMutation.isPending || oidcStart.isPending || passkeyPending;
  if (
    (oidcResult === 'signed-in' && !oidcFinish.isError) ||
    proxySignIn.isPending ||
    proxySignIn.data === true
  ) {
    return (
      <AuthCard title={t`Login`}>
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          <Trans>Signing you in...</Trans>
        </p>
      </AuthCard>
    );
  }
  // With single sign-on and no Google client, a disabled Google button would only distract.
  const showGoogle = oidcName === null || (config.data?.googleClientId ?? null) !== null;
  return (
    <AuthCard title={t`Login`}>
      {/* Why this screen, after a session ended without the person's doing (the notice that
          said it lasts seconds); it names no device or cause the person could not see. */}
      {sessionEndedForcibly() && (
        <p role="status" className="mb-4 text-sm text-slate-700 dark:text-slate-300">
          <Trans>
            Your session has ended: it expired or was signed out from another device. Log in again
            to continue.
          </Trans>
        </p>
      )}
      <ErrorBanner message={error} onDismiss={clearErrors} className="mb-6" />
      {oidcName !== null && (
        <div className="mb-3">
          <OidcSignInButton
            name={oidcName}
            pending={oidcStart.isPending}
            onClick={() => {
              clearErrors();
              oidcStart.mutate();
            }}
          />
        </div>
      )}
      {showGoogle && (
        <GoogleSignInButton
          onCredential={onGoogleCredential}
          onFailure={onGoogleFailure}
          pending={googleMutation.isPending}
        />
      )}
      {passkeysSupported() && (
        <Suspense fallback={null}>
          <PasskeySignIn
            autofill={passwordSignIn}
            disabled={pending}
            onStart={clearErrors}
            onError={setPasskeyError}
            onPendingChange={setPasskeyPending}
          />
        </Suspense>
      )}
      {passwordSignIn && (
        <PasswordLogin submit={submit} pending={pending} busy={loginMutation.isPending} />
      )}
    </AuthCard>
  );
}

/** The username and password form, with the ways to recover and to register. */
function PasswordLogin({
  submit,
  pending,
  busy,
}: {
  submit: (data: FormData) => void;
  pending: boolean;
  busy: boolean;
}) {
  const { t } = useLingui();
  return (
    <>
      <OrDivider />
      <Form label={t`Login`} onSubmit={submit}>
        <TextField
          label={t`Username`}
          id="login-username"
          name="username"
          type="text"
          autoComplete="username webauthn"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <TextField
          label={t`Password`}
          id="login-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        <FormActions>
          <Button type="submit" disabled={pending} className="w-full">
            {busy ? t`Logging in...` : t`Login`}
          </Button>
        </FormActions>
      </Form>
      <p className="mt-4 text-center text-sm">
        <Link href="/forgot-password" className={authLinkClass}>
          <Trans>Forgot password?</Trans>
        </Link>
      </p>
      <AuthSwitchLink question={t`Don't have an account?`} href="/register" label={t`Register`} />
    </>
  );
}
