import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '#web/app/App';

/** Renders the whole app at `path`, as a browser opening that address would. */
export function renderApp(path = '/') {
  window.history.replaceState(null, '', path);
  const user = userEvent.setup();
  return { user, ...render(<App />) };
}
