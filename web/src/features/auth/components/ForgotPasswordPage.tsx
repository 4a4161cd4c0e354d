import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { LIMITS } from '@tally/contract/constants';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { Form, FormActions } from '#web/components/Form';
import { TextField } from '#web/components/FormField';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { useConfig } from '../api/get-config';
import { REQUEST_RESET_OPERATION, useRequestPasswordReset } from '../api/request-password-reset';
import { AuthCard, AuthText, authLinkClass } from './AuthCard';

function BackToLogin() {
  return (
    <p className="mt-6 text-center text-sm">
      <Link href="/login" className={authLinkClass}>
        <Trans>Back to login</Trans>
      </Link>
    </p>
  );
}

/** The request form: an e-mail address; the answer never tells whether an account has it. */
function RequestForm() {
  const request = useRequestPasswordReset();
  const { t } = useLingui();

  if (request.isSuccess) {
    return (
      <p role="status" className="text-slate-800 dark:text-slate-200">
        <Trans>If an account uses that address, we sent a link to reset its password.</Trans>
      </p>
    );
  }
  return (
    <>
      <AuthText>
        <Trans>
          Enter the e-mail address of your account. We will send you a link to choose a new
          password.
        </Trans>
      </AuthText>
      <Form
        label={t`Forgot password`}
        className="mt-6"
        onSubmit={(data) => request.mutate(String(data.get('email') ?? '').trim())}
      >
        <ErrorBanner
          message={request.isError ? errorMessage(request.error, REQUEST_RESET_OPERATION) : null}
          onDismiss={request.reset}
        />
        <TextField
          label={t`Email`}
          id="forgot-email"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={LIMITS.emailMax}
          required
        />
        <FormActions>
          <Button type="submit" disabled={request.isPending} className="w-full">
            {request.isPending ? t`Sending link...` : t`Send reset link`}
          </Button>
        </FormActions>
      </Form>
    </>
  );
}

/**
 * /forgot-password: asks for a reset link by e-mail; when the server sends no e-mail
 * (GET /api/config, passwordResetByEmail false) it says who resets passwords instead.
 */
export function ForgotPasswordPage() {
  const config = useConfig();
  const { t } = useLingui();
  return (
    <AuthCard title={t`Forgot password`}>
      {config.isPending ? (
        <LoadingText>{t`Loading...`}</LoadingText>
      ) : config.data?.passwordResetByEmail === false ? (
        <AuthText>
          <Trans>
            This server does not send e-mail, so it cannot send you a link. The person who runs this
            server resets passwords: ask them to set a new one for you.
          </Trans>
        </AuthText>
      ) : (
        <RequestForm />
      )}
      <BackToLogin />
    </AuthCard>
  );
}
