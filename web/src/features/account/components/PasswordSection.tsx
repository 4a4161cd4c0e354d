import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { LIMITS } from '@tally/contract/constants';
import { NewPasswordFields } from '#web/components/NewPasswordFields';
import { Button } from '#web/components/Button';
import { Form, FormActions } from '#web/components/Form';
import { TextField } from '#web/components/FormField';
import { fieldErrorOf } from '#web/lib/api-client';
import { useChangePassword } from '../api/change-password';
import { Hint, SettingsSection } from '#web/components/SettingsSection';

const linkClass = 'font-medium text-blue-700 underline underline-offset-2 dark:text-blue-300';

interface PasswordSectionProps {
  hasPassword: boolean;
  /** The server sends e-mail, so "Forgot password?" can send a link. */
  mailEnabled: boolean;
  /**
   * Who signs a password-less account in: Google, or the single sign-on provider's name when
   * only that is linked (default Google).
   */
  signsInWith?: string;
}

/** Change the password (current + new); an account made with Google is told how to get one. */
export function PasswordSection({
  hasPassword,
  mailEnabled,
  signsInWith = 'Google',
}: PasswordSectionProps) {
  const { t } = useLingui();
  const changePassword = useChangePassword();
  const [status, setStatus] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const ruleId = useId();

  const submit = (data: FormData) => {
    setStatus(null);
    const endApiTokensAndFeed = data.get('endApiTokensAndFeed') === 'on';
    changePassword.mutate(
      {
        currentPassword: String(data.get('currentPassword') ?? ''),
        newPassword: String(data.get('newPassword') ?? ''),
        endApiTokensAndFeed,
      },
      {
        onSuccess: () => {
          formRef.current?.reset();
          setStatus(
            endApiTokensAndFeed
              ? t`Your password is changed. Every other device was signed out, every API token revoked and the calendar feed turned off.`
              : t`Your password is changed. Every other device was signed out.`,
          );
        },
      },
    );
  };

  if (!hasPassword) {
    return (
      <SettingsSection title={t`Password`}>
        <Hint>
          <Trans>
            Your account was made with {signsInWith} and has no password: you sign in with{' '}
            {signsInWith}.
          </Trans>
        </Hint>
        {mailEnabled ? (
          <Hint>
            <Trans>
              To set a password as well, use{' '}
              <Link href="/forgot-password" className={linkClass}>
                Forgot password?
              </Link>{' '}
              with your e-mail address: we send you a link to choose one.
            </Trans>
          </Hint>
        ) : (
          <Hint>
            <Trans>
              To set a password as well, use &quot;Forgot password?&quot; on the login page; this
              server sends no e-mail, so the person who runs it sets the password for you.
            </Trans>
          </Hint>
        )}
      </SettingsSection>
    );
  }

  const minimum = LIMITS.passwordMin;
  return (
    <SettingsSection title={t`Password`} status={status}>
      <Form
        label={t`Change password`}
        onSubmit={submit}
        ref={formRef}
        // A refusal beside a field goes once the user edits the form.
        onChange={() => {
          if (changePassword.isError) changePassword.reset();
        }}
      >
        <TextField
          label={t`Current password`}
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          error={fieldErrorOf(changePassword.error, 'currentPassword')}
        />
        <NewPasswordFields
          name="newPassword"
          describedBy={ruleId}
          error={fieldErrorOf(changePassword.error, 'newPassword')}
        />
        <Hint id={ruleId}>
          <Trans>
            At least {minimum} characters. Every other device signed in to your account will be
            signed out.
          </Trans>
        </Hint>
        <label className="flex cursor-pointer items-start gap-2 text-sm text-slate-800 dark:text-slate-200">
          <input
            type="checkbox"
            name="endApiTokensAndFeed"
            className="mt-0.5 h-4 w-4 shrink-0 accent-blue-700 dark:accent-blue-300"
          />
          <span>
            <Trans>
              Also revoke every API token and turn the calendar feed off (for when someone else may
              have them)
            </Trans>
          </span>
        </label>
        <FormActions>
          <Button type="submit" disabled={changePassword.isPending}>
            {changePassword.isPending ? t`Changing password...` : t`Change password`}
          </Button>
        </FormActions>
      </Form>
    </SettingsSection>
  );
}
