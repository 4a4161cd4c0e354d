import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { Form, FormActions } from '#web/components/Form';
import { TextField } from '#web/components/FormField';
import { errorMessage, fieldErrorOf } from '#web/lib/api-client';
import { useConfig } from '../api/get-config';
import { REGISTER_OPERATION, useRegister } from '../api/register';
import { AuthCard, AuthSwitchLink, AuthText } from './AuthCard';

const SIGN_UP_CLOSED =
  'Sign-up is closed on this server: it does not take new accounts. Ask the person who runs it if you need one.';

/**
 * /register: username, email (type email) and password, all required, and a link to login. When
 * the operator closed sign-up (GET /api/config, registration "closed") the page says so instead
 * of showing the form.
 */
export function RegisterPage() {
  const config = useConfig();
  if (config.data?.passwordSignIn === false) {
    const name = config.data.oidc?.name ?? 'single sign-on';
    return (
      <AuthCard title="Register">
        <AuthText>
          This server makes accounts through {name}: use Continue with {name} on the login page.
        </AuthText>
        <AuthSwitchLink question="Ready?" href="/login" label="Login" />
      </AuthCard>
    );
  }
  if (config.data?.registration === 'closed') {
    return (
      <AuthCard title="Register">
        <AuthText>{SIGN_UP_CLOSED}</AuthText>
        <AuthSwitchLink question="Already have an account?" href="/login" label="Login" />
      </AuthCard>
    );
  }
  return <RegisterForm />;
}

function RegisterForm() {
  const registerMutation = useRegister();

  const submit = (data: FormData) => {
    registerMutation.mutate({
      username: String(data.get('username') ?? ''),
      email: String(data.get('email') ?? ''),
      password: String(data.get('password') ?? ''),
    });
  };

  const pending = registerMutation.isPending;
  // A refused password (too common) is shown beside the field; anything else above the form.
  const passwordError = fieldErrorOf(registerMutation.error, 'password');
  return (
    <AuthCard title="Register">
      <Form label="Register" onSubmit={submit}>
        <ErrorBanner
          message={
            registerMutation.isError && !passwordError
              ? errorMessage(registerMutation.error, REGISTER_OPERATION)
              : null
          }
          onDismiss={registerMutation.reset}
        />
        <TextField
          label="Username"
          id="register-username"
          name="username"
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <TextField
          label="Email"
          id="register-email"
          name="email"
          type="email"
          autoComplete="email"
          required
        />
        <TextField
          label="Password"
          id="register-password"
          name="password"
          type="password"
          autoComplete="new-password"
          error={passwordError}
          required
        />
        <FormActions>
          <Button type="submit" disabled={pending} className="w-full">
            {pending ? 'Creating account...' : 'Create account'}
          </Button>
        </FormActions>
      </Form>
      <AuthSwitchLink question="Already have an account?" href="/login" label="Login" />
    </AuthCard>
  );
}
