import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { useSession } from '#web/lib/session-store';

/** Protected routes: no token → /login (after a forced logout, once its 100 ms have passed). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  if (!session.token) return session.redirectPending ? null : <Redirect to="/login" replace />;
  return children;
}

/** /login and /register: a token → /todos. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.token) return <Redirect to="/todos" replace />;
  return children;
}
