import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, type ReactNode } from 'react';
import { Redirect } from 'wouter';
import { LoadingText } from '#web/components/LoadingText';
import { useSession } from '#web/lib/session-store';

const ChoosePasswordRoute = lazy(() => import('./routes/choose-password-route'));

/**
 * Protected routes: no token → /login (after a forced logout, once its 100 ms have passed). An
 * operator's one-time password → "Choose a new password" before anything else.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const { t } = useLingui();
  if (!session.token) return session.redirectPending ? null : <Redirect to="/login" replace />;
  if (session.passwordChangeRequired) {
    return (
      <Suspense fallback={<LoadingText>{t`Loading...`}</LoadingText>}>
        <ChoosePasswordRoute />
      </Suspense>
    );
  }
  return children;
}

/** /login and /register: a token → /todos. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.token) return <Redirect to="/todos" replace />;
  return children;
}
