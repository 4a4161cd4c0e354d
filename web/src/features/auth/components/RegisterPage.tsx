import { type FormEvent } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { inputClass, labelClass } from '../../../components/form-styles';
import { errorMessage } from '../../../lib/api-client';
import { REGISTER_OPERATION, useRegister } from '../api/register';
import { AuthCard } from './AuthCard';

/** /register: username, email (type email) and password, all required, and a link to login. */
export function RegisterPage() {
  const registerMutation = useRegister();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    registerMutation.mutate({
      username: String(data.get('username') ?? ''),
      email: String(data.get('email') ?? ''),
      password: String(data.get('password') ?? ''),
    });
  };

  const pending = registerMutation.isPending;
  return (
    <AuthCard title="Register">
      <form onSubmit={onSubmit} className="space-y-4" aria-label="Register">
        <ErrorBanner
          message={
            registerMutation.isError
              ? errorMessage(registerMutation.error, REGISTER_OPERATION)
              : null
          }
          onDismiss={registerMutation.reset}
        />
        <div>
          <label htmlFor="register-username" className={labelClass}>
            Username
          </label>
          <input
            id="register-username"
            name="username"
            type="text"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor="register-email" className={labelClass}>
            Email
          </label>
          <input
            id="register-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor="register-password" className={labelClass}>
            Password
          </label>
          <input
            id="register-password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            className={inputClass}
          />
        </div>
        <Button type="submit" disabled={pending} className="w-full">
          {pending ? 'Creating account...' : 'Create account'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-700 dark:text-slate-300">
        Already have an account?{' '}
        <Link
          href="/login"
          className="font-medium text-blue-700 underline underline-offset-2 dark:text-blue-300"
        >
          Login
        </Link>
      </p>
    </AuthCard>
  );
}
