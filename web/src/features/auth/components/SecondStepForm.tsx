import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { MfaMethod } from '@tally/contract';
import { Button } from '#web/components/Button';
import { Form, FormActions } from '#web/components/Form';
import { TextField } from '#web/components/FormField';
import { errorMessage } from '#web/lib/api-client';
import { MFA_OPERATION, useVerifyMfa } from '../api/verify-mfa';
import { AuthText } from './AuthCard';

/** A text link in the card's colours, tall enough to tap. */
const linkClass = 'min-h-9 text-blue-700 dark:text-blue-300';

interface SecondStepFormProps {
  mfaToken: string;
  methods: MfaMethod[];
  /** Back to the password form (the sign-in expired, or the person wants another way in). */
  onCancel: () => void;
}

/**
 * The second step of a sign-in with two-factor codes on: the app's code (the phone's keyboard
 * and the browser's one-time-code autofill), or, after "Use a recovery code", one of those. A
 * refusal is a sentence under the field (docs/product.md, Errors).
 */
export function SecondStepForm({ mfaToken, methods, onCancel }: SecondStepFormProps) {
  const verify = useVerifyMfa();
  const [recovery, setRecovery] = useState(false);
  const { t } = useLingui();

  const submit = (data: FormData) => {
    verify.mutate({ mfaToken, code: String(data.get('code') ?? '') });
  };
  const switchMethod = () => {
    verify.reset();
    setRecovery((current) => !current);
  };
  const error = verify.isError ? errorMessage(verify.error, MFA_OPERATION) : null;

  return (
    <Form label={t`Two-factor code`} onSubmit={submit}>
      <AuthText>
        {recovery
          ? t`Enter one of the recovery codes you saved when you turned two-factor codes on. Each works once.`
          : t`Enter the 6-digit code your authenticator app shows for Tally.`}
      </AuthText>
      {recovery ? (
        <TextField
          key="recovery"
          label={t`Recovery code`}
          id="mfa-recovery-code"
          name="code"
          type="text"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          error={error}
          required
          autoFocus
        />
      ) : (
        <TextField
          key="totp"
          label={t`Code`}
          id="mfa-code"
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]{6,7}"
          maxLength={7}
          error={error}
          required
          autoFocus
        />
      )}
      <FormActions>
        <Button type="submit" disabled={verify.isPending} className="w-full">
          {verify.isPending ? t`Checking...` : t`Verify`}
        </Button>
      </FormActions>
      <div className="flex flex-wrap justify-between gap-3 text-sm">
        {methods.includes('recovery') || recovery ? (
          <Button variant="link" size="none" className={linkClass} onClick={switchMethod}>
            {recovery ? t`Use a code from your app` : t`Use a recovery code`}
          </Button>
        ) : (
          <span />
        )}
        <Button variant="link" size="none" className={linkClass} onClick={onCancel}>
          <Trans>Start over</Trans>
        </Button>
      </div>
    </Form>
  );
}
