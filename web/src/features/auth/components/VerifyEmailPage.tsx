import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { useSession } from '#web/lib/session-store';
import { VERIFY_EMAIL_OPERATION, useVerifyEmail } from '../api/verify-email';
import { useLinkToken } from '../hooks/use-link-token';
import { AuthCard, AuthText, authLinkClass } from './AuthCard';

const EMAIL_VERIFIED = 'Your e-mail address is verified';

/** /verify-email#token=: sends the link's token once, on load, and says how it went. */
export function VerifyEmailPage() {
  const token = useLinkToken();
  const verify = useVerifyEmail();
  const signedIn = useSession().token !== null;
  // The token works once: send it once, also when React runs effects twice in development.
  const sent = useRef(false);
  const { mutate } = verify;

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  const next = signedIn ? (
    <Link href="/settings" className={authLinkClass}>
      Go to your settings
    </Link>
  ) : (
    <Link href="/login" className={authLinkClass}>
      Log in
    </Link>
  );

  return (
    <AuthCard title="Verify e-mail">
      {!token ? (
        <AuthText>
          This link is incomplete: open the whole link from the e-mail. A signed-in account can ask
          for a new one in its settings.
        </AuthText>
      ) : verify.isSuccess ? (
        <p role="status" className="text-slate-800 dark:text-slate-200">
          {EMAIL_VERIFIED}
        </p>
      ) : verify.isError ? (
        <ErrorBanner message={errorMessage(verify.error, VERIFY_EMAIL_OPERATION)} />
      ) : (
        <LoadingText>Verifying your e-mail address...</LoadingText>
      )}
      <p className="mt-6 text-center text-sm">{next}</p>
    </AuthCard>
  );
}
