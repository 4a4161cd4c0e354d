import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { LIMITS } from '@tally/contract/constants';
import { NewPasswordFields } from '#web/components/NewPasswordFields';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { Form, FormActions } from '#web/components/Form';
import { errorMessage, fieldErrorOf } from '#web/lib/api-client';
import { RESET_PASSWORD_OPERATION, useResetPassword } from '../api/reset-password';
import { useLinkToken } from '../hooks/use-link-token';
import { AuthCard, AuthText, authLinkClass } from './AuthCard';

/**
 * /reset-password#token=: the new password twice → POST /api/auth/password-reset/confirm. Success
 * leads to the login; a used or expired link shows the server's sentence and a way to a new one.
 */
export function ResetPasswordPage() {
  const token = useLinkToken();
  const reset = useResetPassword();
  const [mismatch, setMismatch] = useState(false);
  const ruleId = useId();
  const { t } = useLingui();

  if (!token) {
    return (
      <AuthCard title={t`Reset password`}>
        <AuthText>
          <Trans>
            This link is incomplete: open the whole link from the e-mail, or{' '}
            <Link href="/forgot-password" className={authLinkClass}>
              ask for a new link
            </Link>
            .
          </Trans>
        </AuthText>
      </AuthCard>
    );
  }

  if (reset.isSuccess) {
    return (
      <AuthCard title={t`Reset password`}>
        <p role="status" className="text-slate-800 dark:text-slate-200">
          <Trans>
            Your password is set. Every device signed in to your account was signed out, every API
            token revoked and the calendar feed turned off (make a new feed URL in Settings if you
            want it). A linked Google or single sign-on account stays linked only if your address
            was verified before: Settings shows what is linked.
          </Trans>
        </p>
        <p className="mt-6 text-center text-sm">
          <Link href="/login" className={authLinkClass}>
            <Trans>Log in with your new password</Trans>
          </Link>
        </p>
      </AuthCard>
    );
  }

  const submit = (data: FormData) => {
    const password = String(data.get('password') ?? '');
    if (password !== String(data.get('repeat') ?? '')) {
      reset.reset();
      setMismatch(true);
      return;
    }
    setMismatch(false);
    reset.mutate({ token, password });
  };

  // A refused password (too common) is shown beside the field, and the link still works.
  const passwordError = mismatch ? null : fieldErrorOf(reset.error, 'password');
  const error = mismatch
    ? t`The two passwords are not the same`
    : reset.isError && !passwordError
      ? errorMessage(reset.error, RESET_PASSWORD_OPERATION)
      : null;
  return (
    <AuthCard title={t`Reset password`}>
      <Form label={t`Reset password`} onSubmit={submit}>
        <ErrorBanner
          message={error}
          onDismiss={() => {
            setMismatch(false);
            reset.reset();
          }}
        />
        {reset.isError && !mismatch && !passwordError && (
          <AuthText>
            <Link href="/forgot-password" className={authLinkClass}>
              <Trans>Ask for a new link</Trans>
            </Link>
          </AuthText>
        )}
        <NewPasswordFields
          name="password"
          id="reset-password"
          describedBy={ruleId}
          error={passwordError}
          repeat
        />
        <p id={ruleId} className="text-sm text-slate-700 dark:text-slate-300">
          {plural(LIMITS.passwordMin, {
            one: 'At least # character. Setting it signs out every device, revokes every API token and turns the calendar feed off.',
            other:
              'At least # characters. Setting it signs out every device, revokes every API token and turns the calendar feed off.',
          })}
        </p>
        <FormActions>
          <Button type="submit" disabled={reset.isPending} className="w-full">
            {reset.isPending ? t`Setting password...` : t`Set new password`}
          </Button>
        </FormActions>
      </Form>
    </AuthCard>
  );
}
