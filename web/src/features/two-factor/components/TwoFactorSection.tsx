import { plural, msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { TwoFactorSetup, TwoFactorStatus } from '@tally/contract';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { Form, FormActions } from '#web/components/Form';
import { TextField } from '#web/components/FormField';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage, fieldErrorOf } from '#web/lib/api-client';
import { useDisableTwoFactor } from '../api/disable-two-factor';
import { useEnableTwoFactor } from '../api/enable-two-factor';
import { LOAD_TWO_FACTOR_OPERATION, useTwoFactor } from '../api/get-two-factor';
import { useStartTwoFactorSetup } from '../api/start-two-factor-setup';
import { copyResult, copyText } from '#web/lib/copy-text';
import { formatInstant } from '#web/lib/format-instant';
import { endedSentence, endOtherAccessOf } from '#web/lib/end-other-access';
import { CopyField } from '#web/components/CopyField';
import { EndOtherAccessFields } from '#web/components/EndOtherAccessFields';
import { Hint, SettingsSection, SubHeading } from '#web/components/SettingsSection';

/** The secret in groups of four, as authenticator apps show it (spaces are ignored when typed). */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** Scan or type the secret, then confirm with the app's first code. */
function SetupForm({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetup;
  /** `ended`: what else ended with it, as a sentence (endedSentence). */
  onEnabled: (recoveryCodes: string[], ended: string) => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const enable = useEnableTwoFactor();
  const [copied, setCopied] = useState<string | null>(null);
  const submit = (data: FormData) => {
    const choice = endOtherAccessOf(data);
    enable.mutate(
      { code: String(data.get('code') ?? ''), ...choice },
      { onSuccess: ({ recoveryCodes }) => onEnabled(recoveryCodes, endedSentence(choice)) },
    );
  };
  const codeError = enable.isError
    ? (fieldErrorOf(enable.error, 'code') ??
      errorMessage(enable.error, msg`Turn on two-factor codes failed`))
    : null;
  return (
    <div className="space-y-4">
      <Hint>
        <Trans>
          1. Scan this QR code with an authenticator app (Aegis, Google Authenticator, 1Password,
          Bitwarden...), or type the secret key into it.
        </Trans>
      </Hint>
      <img
        src={setup.qrCode}
        alt={t`QR code for your authenticator app`}
        width={200}
        height={200}
        className="rounded-md border border-slate-300 bg-white p-1"
      />
      <CopyField
        label={t`Secret key`}
        value={grouped(setup.secret)}
        copyLabel={t`Copy key`}
        onCopy={(ok) => setCopied(copyResult(ok, 'secretKey'))}
      />
      {copied && <Hint>{copied}</Hint>}
      <Form label={t`Confirm two-factor code`} onSubmit={submit}>
        <TextField
          label={t`2. Code from the app`}
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          error={codeError}
          required
        />
        <EndOtherAccessFields />
        <FormActions>
          <Button type="submit" disabled={enable.isPending}>
            {enable.isPending ? t`Turning on...` : t`Turn on`}
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
        </FormActions>
      </Form>
    </div>
  );
}

/** The recovery codes, shown once right after turning the codes on. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <div className="space-y-4">
      <SubHeading>
        <Trans>Your recovery codes</Trans>
      </SubHeading>
      <Hint>
        <Trans>
          Save these codes somewhere safe (a password manager, or on paper). If you lose your phone,
          each one signs you in once instead of a code. They are shown only now.
        </Trans>
      </Hint>
      <ul
        aria-label={t`Recovery codes`}
        className="grid max-w-md grid-cols-2 gap-2 rounded-md bg-slate-50 p-3 font-mono text-sm text-slate-900 dark:bg-slate-950 dark:text-slate-100"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      {copied && <Hint>{copied}</Hint>}
      <FormActions>
        <Button
          variant="secondary"
          onClick={() =>
            void copyText(codes.join('\n')).then((ok) => setCopied(copyResult(ok, 'recoveryCodes')))
          }
        >
          <Trans>Copy codes</Trans>
        </Button>
        <Button onClick={onDone}>
          <Trans>I have saved them</Trans>
        </Button>
      </FormActions>
    </div>
  );
}

/** Turn the codes off: a code from the app (or a recovery code), or the password. */
function DisableForm({
  status,
  hasPassword,
  onDisabled,
}: {
  status: TwoFactorStatus;
  hasPassword: boolean;
  /** `ended`: what else ended with it, as a sentence (endedSentence). */
  onDisabled: (ended: string) => void;
}) {
  const { t } = useLingui();
  const disable = useDisableTwoFactor();
  const [withPassword, setWithPassword] = useState(false);
  const field = withPassword ? 'password' : 'code';
  const submit = (data: FormData) => {
    const value = String(data.get(field) ?? '');
    const choice = endOtherAccessOf(data);
    disable.mutate(withPassword ? { password: value, ...choice } : { code: value, ...choice }, {
      onSuccess: () => onDisabled(endedSentence(choice)),
    });
  };
  const error = disable.isError
    ? (fieldErrorOf(disable.error, field) ?? errorMessage(disable.error, msg`Turn off failed`))
    : null;
  const { enabledAt, recoveryCodesLeft: left } = status;
  const since = enabledAt ? formatInstant(enabledAt) : '';
  return (
    <div className="space-y-4">
      <Hint>
        {enabledAt ? (
          <Trans>
            Two-factor codes are on since <time dateTime={enabledAt}>{since}</time>: signing in asks
            for a code from your authenticator app after the password.
          </Trans>
        ) : (
          <Trans>
            Two-factor codes are on: signing in asks for a code from your authenticator app after
            the password.
          </Trans>
        )}{' '}
        {plural(left, { one: '# recovery code is left.', other: '# recovery codes are left.' })}
      </Hint>
      <Form label={t`Turn off two-factor codes`} onSubmit={submit}>
        {withPassword ? (
          <TextField
            key="password"
            label={t`Password`}
            name="password"
            type="password"
            autoComplete="current-password"
            error={error}
            required
          />
        ) : (
          <TextField
            key="code"
            label={t`Code from the app (or a recovery code)`}
            name="code"
            type="text"
            autoComplete="one-time-code"
            error={error}
            required
          />
        )}
        <EndOtherAccessFields />
        <FormActions>
          <Button type="submit" variant="danger" disabled={disable.isPending}>
            {disable.isPending ? t`Turning off...` : t`Turn off two-factor codes`}
          </Button>
          {hasPassword && (
            <Button
              variant="link"
              size="none"
              className="min-h-9 text-blue-700 dark:text-blue-300"
              onClick={() => {
                disable.reset();
                setWithPassword((current) => !current);
              }}
            >
              {withPassword ? t`Use a code instead` : t`Use your password instead`}
            </Button>
          )}
        </FormActions>
      </Form>
    </div>
  );
}

/**
 * Settings → Two-factor (docs/decisions/081-two-factor-codes.md): set up an authenticator app
 * (QR code and secret, confirmed with a code), see the recovery codes once, turn it off. The
 * changes need a recent proof of identity: the API client asks for it ("Confirm it's you").
 */
export function TwoFactorSection({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useLingui();
  const title = t`Two-factor`;
  const twoFactor = useTwoFactor();
  const startSetup = useStartTwoFactorSetup();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  /** What else turning the codes on ended, told once the recovery codes are saved. */
  const [ended, setEnded] = useState('');
  const [status, setStatus] = useState<string | null>(null);

  if (twoFactor.isPending) {
    return (
      <SettingsSection title={title}>
        <LoadingText>{t`Loading two-factor settings...`}</LoadingText>
      </SettingsSection>
    );
  }
  if (twoFactor.isError) {
    return (
      <SettingsSection title={title}>
        <ErrorBanner message={errorMessage(twoFactor.error, LOAD_TWO_FACTOR_OPERATION)} />
      </SettingsSection>
    );
  }

  let body;
  if (recoveryCodes) {
    body = (
      <RecoveryCodes
        codes={recoveryCodes}
        onDone={() => {
          setRecoveryCodes(null);
          setStatus(t`Two-factor codes are on.` + ended);
        }}
      />
    );
  } else if (twoFactor.data.enabled) {
    body = (
      <DisableForm
        status={twoFactor.data}
        hasPassword={hasPassword}
        onDisabled={(endedToo) =>
          setStatus(t`Two-factor codes are off: signing in asks for the password only.` + endedToo)
        }
      />
    );
  } else if (setup) {
    body = (
      <SetupForm
        setup={setup}
        onEnabled={(codes, endedToo) => {
          setSetup(null);
          setRecoveryCodes(codes);
          setEnded(endedToo);
        }}
        onCancel={() => setSetup(null)}
      />
    );
  } else {
    body = (
      <>
        <Hint>
          <Trans>
            Off. With two-factor codes on, signing in asks for a code from an authenticator app on
            your phone after the password, so a stolen password alone is not enough.
          </Trans>
        </Hint>
        <div>
          <Button
            onClick={() => {
              setStatus(null);
              startSetup.mutate(undefined, { onSuccess: setSetup });
            }}
            disabled={startSetup.isPending}
          >
            {startSetup.isPending ? t`Starting...` : t`Set up two-factor codes`}
          </Button>
        </div>
      </>
    );
  }
  return (
    <SettingsSection title={title} status={status}>
      {body}
    </SettingsSection>
  );
}
