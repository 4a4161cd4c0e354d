import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import type { Account } from '@tally/contract';
import { LIMITS } from '@tally/contract/constants';
import { Button } from '#web/components/Button';
import { Form, FormActions } from '#web/components/Form';
import { TextField } from '#web/components/FormField';
import { cn } from '#web/lib/cn';
import { fieldErrorOf } from '#web/lib/api-client';
import { useChangeEmail } from '../api/change-email';
import { useResendVerification } from '../api/resend-verification';
import { formatInstant } from '#web/lib/format-instant';
import { Hint, SettingsSection, SubHeading } from '#web/components/SettingsSection';

function VerifiedBadge({ verified }: { verified: boolean }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold',
        verified
          ? 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200'
          : 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
      )}
    >
      {verified ? <Trans>Verified</Trans> : <Trans>Not verified</Trans>}
    </span>
  );
}

const termClass = 'text-sm font-medium text-slate-600 dark:text-slate-400';
const valueClass = 'mt-0.5 break-words text-slate-900 dark:text-slate-100';

interface AccountSectionProps {
  account: Account;
  /** The server sends e-mail (verification links). */
  mailEnabled: boolean;
  /** Who signs a password-less account in (see PasswordSection); default Google. */
  signsInWith?: string;
}

/** Username, e-mail with its verification, resending the link, changing the address. */
export function AccountSection({
  account,
  mailEnabled,
  signsInWith = 'Google',
}: AccountSectionProps) {
  const { t } = useLingui();
  const changeEmail = useChangeEmail();
  const resend = useResendVerification();
  const [status, setStatus] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const submit = (data: FormData) => {
    setStatus(null);
    changeEmail.mutate(
      {
        email: String(data.get('email') ?? '').trim(),
        currentPassword: String(data.get('currentPassword') ?? ''),
      },
      {
        onSuccess: ({ email }) => {
          formRef.current?.reset();
          setStatus(
            mailEnabled
              ? t`Your e-mail address is now ${email}. We sent a link to it to verify it.`
              : t`Your e-mail address is now ${email}.`,
          );
        },
      },
    );
  };

  const resendLink = () => {
    setStatus(null);
    resend.mutate(undefined, {
      onSuccess: () => {
        const { email } = account;
        setStatus(t`We sent a new verification link to ${email}.`);
      },
    });
  };

  const resetAt = account.passwordResetAt ? formatInstant(account.passwordResetAt) : null;
  return (
    <SettingsSection title={t`Account`} status={status}>
      <dl className="grid gap-4 sm:grid-cols-2">
        <div>
          <dt className={termClass}>
            <Trans>Username</Trans>
          </dt>
          <dd className={valueClass}>{account.username}</dd>
        </div>
        <div>
          <dt className={termClass}>
            <Trans>E-mail</Trans>
          </dt>
          <dd className={cn(valueClass, 'flex flex-wrap items-center gap-x-2 gap-y-1')}>
            <span className="min-w-0 break-all">{account.email}</span>
            <VerifiedBadge verified={account.emailVerified} />
          </dd>
        </div>
      </dl>
      {resetAt && (
        <Hint>
          <Trans>
            Your password was reset by e-mail link on {resetAt}. That signed out every device,
            revoked every API token and turned the calendar feed off. A linked Google or single
            sign-on account stayed linked only if the address was verified before (see below).
          </Trans>
        </Hint>
      )}
      {!account.emailVerified && !mailEnabled && (
        <Hint>
          <Trans>
            Not verified because this server sends no e-mail: its operator has not set up mail
            (SMTP_URL), so no verification link can reach you. Everything else works as usual.
          </Trans>
        </Hint>
      )}
      {!account.emailVerified && mailEnabled && (
        <div className="flex flex-wrap items-center gap-3">
          <Hint>
            <Trans>Open the link we sent to your address to verify it.</Trans>
          </Hint>
          <Button variant="secondary" size="sm" onClick={resendLink} disabled={resend.isPending}>
            {resend.isPending ? t`Sending...` : t`Resend verification link`}
          </Button>
        </div>
      )}
      <SubHeading>
        <Trans>Change e-mail</Trans>
      </SubHeading>
      {account.hasPassword ? (
        <Form
          label={t`Change e-mail`}
          onSubmit={submit}
          ref={formRef}
          // A refusal beside a field goes once the user edits the form.
          onChange={() => {
            if (changeEmail.isError) changeEmail.reset();
          }}
        >
          <TextField
            label={t`New e-mail address`}
            name="email"
            type="email"
            autoComplete="email"
            maxLength={LIMITS.emailMax}
            required
            error={fieldErrorOf(changeEmail.error, 'email')}
          />
          <TextField
            label={t`Current password`}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            error={fieldErrorOf(changeEmail.error, 'currentPassword')}
          />
          <FormActions>
            <Button type="submit" disabled={changeEmail.isPending}>
              {changeEmail.isPending ? t`Changing e-mail...` : t`Change e-mail`}
            </Button>
          </FormActions>
        </Form>
      ) : (
        <Hint>
          <Trans>
            Your account signs in with {signsInWith} and has no password yet. Set a password first
            (see Password below); then you can change your e-mail address here.
          </Trans>
        </Hint>
      )}
    </SettingsSection>
  );
}
