import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { LIMITS } from '@tally/contract/constants';
import { NewPasswordFields } from '#web/components/NewPasswordFields';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { Form, FormActions } from '#web/components/Form';
import { TextField } from '#web/components/FormField';
import { errorMessage } from '#web/lib/api-client';
import { useChangePassword } from '../api/change-password';

/**
 * Shown instead of every signed-in screen while the password is the one-time one the operator
 * generated (`tally user create`): the API refuses everything else until it is changed. Once it
 * is, the screen that was asked for appears.
 */
export function ChoosePasswordPage() {
  const { t } = useLingui();
  const changePassword = useChangePassword();
  const [mismatch, setMismatch] = useState(false);
  const ruleId = useId();

  const submit = (data: FormData) => {
    const newPassword = String(data.get('newPassword') ?? '');
    if (newPassword !== String(data.get('repeat') ?? '')) {
      changePassword.reset();
      setMismatch(true);
      return;
    }
    setMismatch(false);
    changePassword.mutate({
      currentPassword: String(data.get('currentPassword') ?? ''),
      newPassword,
    });
  };

  const error = mismatch
    ? t`The two new passwords are not the same`
    : changePassword.isError
      ? errorMessage(changePassword.error, msg`Change password failed`)
      : null;
  const minimum = LIMITS.passwordMin;
  return (
    <div className="mx-auto w-full max-w-sm px-4 py-10 sm:py-16">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <h1 className="mb-4 text-2xl font-semibold text-slate-900 dark:text-slate-100">
          <Trans>Choose a new password</Trans>
        </h1>
        <p className="mb-6 text-sm text-slate-700 dark:text-slate-300">
          <Trans>
            The password you signed in with was made for one sign-in only. Choose your own to go on.
          </Trans>
        </p>
        <Form label={t`Choose a new password`} onSubmit={submit}>
          <ErrorBanner
            message={error}
            onDismiss={() => {
              setMismatch(false);
              changePassword.reset();
            }}
          />
          <TextField
            label={t`Password you were given`}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
          />
          <NewPasswordFields name="newPassword" describedBy={ruleId} repeat />
          <p id={ruleId} className="text-sm text-slate-700 dark:text-slate-300">
            <Trans>At least {minimum} characters.</Trans>
          </p>
          <FormActions>
            <Button type="submit" disabled={changePassword.isPending} className="w-full">
              {changePassword.isPending ? t`Saving password...` : t`Save new password`}
            </Button>
          </FormActions>
        </Form>
      </div>
    </div>
  );
}
