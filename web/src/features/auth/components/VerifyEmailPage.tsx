import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { useSession } from '#web/lib/session-store';
import { useVerificationAccount } from '../api/verification-account';
import { VERIFY_EMAIL_OPERATION, useVerifyEmail } from '../api/verify-email';
import { useLinkToken } from '../hooks/use-link-token';
import { AuthCard, AuthText, authLinkClass } from './AuthCard';

/**
 * /verify-email#token=: names the account the link is for and verifies only when asked, so a
 * link someone else caused to be sent is not followed by accident (docs/decisions/078-pre-account-takeover.md).
 */
export function VerifyEmailPage() {
  const token = useLinkToken();
  const target = useVerificationAccount();
  const verify = useVerifyEmail();
  const signedIn = useSession().token !== null;
  // Ask once, also when React runs effects twice in development.
  const asked = useRef(false);
  const { mutate: lookUp } = target;
  const { t } = useLingui();

  useEffect(() => {
    if (!token || asked.current) return;
    asked.current = true;
    lookUp(token);
  }, [token, lookUp]);

  const next = signedIn ? (
    <Link href="/settings" className={authLinkClass}>
      <Trans>Go to your settings</Trans>
    </Link>
  ) : (
    <Link href="/login" className={authLinkClass}>
      <Trans>Log in</Trans>
    </Link>
  );

  const email = target.data?.email;
  const username = target.data?.username;
  return (
    <AuthCard title={t`Verify e-mail`}>
      {!token ? (
        <AuthText>
          <Trans>
            This link is incomplete: open the whole link from the e-mail. A signed-in account can
            ask for a new one in its settings.
          </Trans>
        </AuthText>
      ) : verify.isSuccess ? (
        <p role="status" className="text-slate-800 dark:text-slate-200">
          <Trans>Your e-mail address is verified</Trans>
        </p>
      ) : target.isError ? (
        <ErrorBanner message={errorMessage(target.error, VERIFY_EMAIL_OPERATION)} />
      ) : target.data ? (
        <>
          <AuthText>
            <Trans>
              Verify the e-mail address <strong>{email}</strong> for the Tally account{' '}
              <strong>«{username}»</strong>?
            </Trans>
          </AuthText>
          <AuthText>
            <Trans>
              If you did not sign up for Tally or change your address, do not verify it: someone
              else may have used your address.
            </Trans>
          </AuthText>
          <ErrorBanner
            message={verify.isError ? errorMessage(verify.error, VERIFY_EMAIL_OPERATION) : null}
          />
          <Button
            className="mt-4 w-full"
            disabled={verify.isPending}
            onClick={() => verify.mutate(token)}
          >
            {verify.isPending ? t`Verifying...` : t`Verify e-mail address`}
          </Button>
        </>
      ) : (
        <LoadingText>{t`Looking up the link...`}</LoadingText>
      )}
      <p className="mt-6 text-center text-sm">{next}</p>
    </AuthCard>
  );
}
