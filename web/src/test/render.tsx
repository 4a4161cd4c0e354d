import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { App } from '#web/app/App';
import { Providers } from '#web/app/providers';
import { NoticeRegion } from '#web/components/NoticeRegion';

/** Renders the whole app at `path`, as a browser opening that address would. */
export function renderApp(path = '/') {
  window.history.replaceState(null, '', path);
  const user = userEvent.setup();
  return { user, ...render(<App />) };
}

/**
 * Renders one part of a screen alone (a Settings section, say) with the app's providers and its
 * notices, as the page shows it, without loading the page around it.
 */
export function renderSection(ui: ReactElement) {
  const user = userEvent.setup();
  return {
    user,
    ...render(
      <I18nProvider i18n={i18n}>
        <Providers>
          {ui}
          <NoticeRegion />
        </Providers>
      </I18nProvider>,
    ),
  };
}

/** Renders one component with the active language's messages, as App provides them. */
export function renderTranslated(ui: ReactNode) {
  return render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
}
