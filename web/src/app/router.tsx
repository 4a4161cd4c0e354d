import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { LoadingText } from '#web/components/LoadingText';
import { GuestOnly, RequireAuth } from './guards';
import NotFoundRoute from './routes/not-found-route';
import { calendarScreen } from './screens';

// Every screen loads its code when first opened: a signed-in visit to /todos does not download
// the ways to sign in (password, Google, OpenID Connect, the second step), nor /login the lists.
const LoginRoute = lazy(() => import('./routes/login-route'));
const RegisterRoute = lazy(() => import('./routes/register-route'));
const TodosRoute = lazy(() => import('./routes/todos-route'));
const GroupsRoute = lazy(() => import('./routes/groups-route'));
const FiltersRoute = lazy(() => import('./routes/filters-route'));
const StatisticsRoute = lazy(() => import('./routes/statistics-route'));
const SettingsRoute = lazy(() => import('./routes/settings-route'));
const TrashRoute = lazy(() => import('./routes/trash-route'));
const ShareRoute = lazy(() => import('./routes/share-route'));
const AdminRoute = lazy(() => import('./routes/admin-route'));
const ForgotPasswordRoute = lazy(() => import('./routes/forgot-password-route'));
const ResetPasswordRoute = lazy(() => import('./routes/reset-password-route'));
const VerifyEmailRoute = lazy(() => import('./routes/verify-email-route'));

/** A lazily loaded screen: "Loading..." until its code is there. */
function Lazy({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  return <Suspense fallback={<LoadingText>{t`Loading...`}</LoadingText>}>{children}</Suspense>;
}

/** Every route of docs/product.md, Routes. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/">
        <Redirect to="/todos" replace />
      </Route>
      <Route path="/login">
        <GuestOnly>
          <Lazy>
            <LoginRoute />
          </Lazy>
        </GuestOnly>
      </Route>
      <Route path="/register">
        <GuestOnly>
          <Lazy>
            <RegisterRoute />
          </Lazy>
        </GuestOnly>
      </Route>
      <Route path="/todos">
        <RequireAuth>
          <Lazy>
            <TodosRoute />
          </Lazy>
        </RequireAuth>
      </Route>
      <Route path="/calendar">
        <RequireAuth>
          <Lazy>
            <calendarScreen.Screen />
          </Lazy>
        </RequireAuth>
      </Route>
      <Route path="/filters/:id">
        {(params) => (
          <RequireAuth>
            <Lazy>
              <FiltersRoute id={params.id} />
            </Lazy>
          </RequireAuth>
        )}
      </Route>
      <Route path="/groups">
        <RequireAuth>
          <Lazy>
            <GroupsRoute />
          </Lazy>
        </RequireAuth>
      </Route>
      <Route path="/statistics">
        <RequireAuth>
          <Lazy>
            <StatisticsRoute />
          </Lazy>
        </RequireAuth>
      </Route>
      <Route path="/trash">
        <RequireAuth>
          <Lazy>
            <TrashRoute />
          </Lazy>
        </RequireAuth>
      </Route>
      {/* What the share sheet or the bookmarklet sends (SHARE_PATH): signs in first if need be. */}
      <Route path="/share">
        <RequireAuth>
          <Lazy>
            <ShareRoute />
          </Lazy>
        </RequireAuth>
      </Route>
      <Route path="/admin">
        <RequireAuth>
          <Lazy>
            <AdminRoute />
          </Lazy>
        </RequireAuth>
      </Route>
      <Route path="/settings/:section?">
        {(params) => (
          <RequireAuth>
            <Lazy>
              <SettingsRoute section={params.section} />
            </Lazy>
          </RequireAuth>
        )}
      </Route>
      {/* Reached from e-mailed links, signed in or not. */}
      <Route path="/forgot-password">
        <Lazy>
          <ForgotPasswordRoute />
        </Lazy>
      </Route>
      <Route path="/reset-password">
        <Lazy>
          <ResetPasswordRoute />
        </Lazy>
      </Route>
      <Route path="/verify-email">
        <Lazy>
          <VerifyEmailRoute />
        </Lazy>
      </Route>
      <Route>
        <NotFoundRoute />
      </Route>
    </Switch>
  );
}
