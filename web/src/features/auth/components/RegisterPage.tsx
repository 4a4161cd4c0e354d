import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { Form, FormActions } from '#web/components/Form';
import { TextField } from '#web/components/FormField';
import { errorMessage, fieldErrorOf } from '#web/lib/api-client';
import { useConfig } from '../api/get-config';
import { REGISTER_OPERATION, useRegister } from '../api/register';
import { AuthCard, AuthSwitchLink, AuthText } from './AuthCard';

/**
 * /register: username, email (type email) and password, all required, and a link to login. When
 * the operator closed sign-up (GET /api/config, registration "closed") the page says so instead
 * of showing the form. While the server has no account and a setup token, the form asks for it.
 */
export function RegisterPage() {
  const config = useConfig();
  const { t } = useLingui();
  if (config.data?.passwordSignIn === false) {
    const name = config.data.oidc?.name ?? t`single sign-on`;
    return (
      <AuthCard title={t`Register`}>
        <AuthText>
          <Trans>
            This server makes accounts through {name}: use Continue with {name} on the login page.
          </Trans>
        </AuthText>
        <AuthSwitchLink question={t`Ready?`} href="/login" label={t`Login`} />
      </AuthCard>
    );
  }
  const setupTokenRequired = config.data?.setupTokenRequired ?? false;
  // A closed server still takes its first account, from whoever holds the setup token.
  if (config.data?.registration === 'closed' && !setupTokenRequired) {
    return (
      <AuthCard title={t`Register`}>
        <AuthText>
          <Trans>
            Sign-up is closed on this server: it does not take new accounts. Ask the person who runs
            it if you need one.
          </Trans>
        </AuthText>
        <AuthSwitchLink question={t`Already have an account?`} href="/login" label={t`Login`} />
      </AuthCard>
    );
  }
  return <RegisterForm setupTokenRequired={setupTokenRequired} />;
}

function RegisterForm({ setupTokenRequired }: { setupTokenRequired: boolean }) {
  const registerMutation = useRegister();
  const { t } = useLingui();

  const submit = (data: FormData) => {
    registerMutation.mutate({
      username: String(data.get('username') ?? ''),
      email: String(data.get('email') ?? ''),
      password: String(data.get('password') ?? ''),
      ...(setupTokenRequired ? { setupToken: String(data.get('setupToken') ?? '') } : {}),
    });
  };

  const pending = registerMutation.isPending;
  // A refused password (too common) or setup token is shown beside its field; anything else
  // above the form.
  const passwordError = fieldErrorOf(registerMutation.error, 'password');
  const setupTokenError = fieldErrorOf(registerMutation.error, 'setupToken');
  return (
    <AuthCard title={t`Register`}>
      {setupTokenRequired ? (
        <AuthText>
          <Trans>
            This server has no account yet. The first one is made with the setup token its operator
            set (SETUP_TOKEN).
          </Trans>
        </AuthText>
      ) : null}
      <Form label={t`Register`} onSubmit={submit}>
        <ErrorBanner
          message={
            registerMutation.isError && !passwordError && !setupTokenError
              ? errorMessage(registerMutation.error, REGISTER_OPERATION)
              : null
          }
          onDismiss={registerMutation.reset}
        />
        <TextField
          label={t`Username`}
          id="register-username"
          name="username"
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <TextField
          label={t`Email`}
          id="register-email"
          name="email"
          type="email"
          autoComplete="email"
          required
        />
        <TextField
          label={t`Password`}
          id="register-password"
          name="password"
          type="password"
          autoComplete="new-password"
          error={passwordError}
          required
        />
        {setupTokenRequired ? (
          <TextField
            label={t`Setup token`}
            id="register-setup-token"
            name="setupToken"
            type="password"
            autoComplete="off"
            spellCheck={false}
            error={setupTokenError}
            required
          />
        ) : null}
        <FormActions>
          <Button type="submit" disabled={pending} className="w-full">
            {pending ? t`Creating account...` : t`Create account`}
          </Button>
        </FormActions>
      </Form>
      <AuthSwitchLink question={t`Already have an account?`} href="/login" label={t`Login`} />
    </AuthCard>
  );
}
