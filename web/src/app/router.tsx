import { lazy, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { LoadingText } from '#web/components/LoadingText';
import { GuestOnly, RequireAuth } from './guards';
import GroupsRoute from './routes/groups-route';
import LoginRoute from './routes/login-route';
import NotFoundRoute from './routes/not-found-route';
import RegisterRoute from './routes/register-route';
import TodosRoute from './routes/todos-route';

const StatisticsRoute = lazy(() => import('./routes/statistics-route'));

/** Every route of docs/product.md, Routes. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/">
        <Redirect to="/todos" replace />
      </Route>
      <Route path="/login">
        <GuestOnly>
          <LoginRoute />
        </GuestOnly>
      </Route>
      <Route path="/register">
        <GuestOnly>
          <RegisterRoute />
        </GuestOnly>
      </Route>
      <Route path="/todos">
        <RequireAuth>
          <TodosRoute />
        </RequireAuth>
      </Route>
      <Route path="/groups">
        <RequireAuth>
          <GroupsRoute />
        </RequireAuth>
      </Route>
      <Route path="/statistics">
        <RequireAuth>
          <Suspense fallback={<LoadingText>Loading...</LoadingText>}>
            <StatisticsRoute />
          </Suspense>
        </RequireAuth>
      </Route>
      <Route>
        <NotFoundRoute />
      </Route>
    </Switch>
  );
}
