import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { ErrorBoundary } from '#web/components/ErrorBoundary';
import { NoticeRegion } from '#web/components/NoticeRegion';
import { useReminderNotices } from '#web/features/reminders/hooks/use-reminder-notices';
import { useSession } from '#web/lib/session-store';
import { CommandLayer } from './commands/CommandLayer';
import { NavBar } from './layout/NavBar';
import { OfflineBanner } from './layout/OfflineBanner';
import { Providers } from './providers';
import { AppRoutes } from './router';

/**
 * After each client-side navigation (not on first load) the next page starts at its top, header
 * in view, as a page load does, and the focus moves to its main content. The focus must not
 * scroll: bringing <main> into view would scroll the header away.
 */
function useFocusMainOnNavigation() {
  const [location] = useLocation();
  const previous = useRef(location);
  useEffect(() => {
    if (previous.current === location) return;
    previous.current = location;
    window.scrollTo(0, 0);
    const main = document.getElementById('main');
    if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
  }, [location]);
}

function Shell() {
  useFocusMainOnNavigation();
  const [location] = useLocation();
  const signedIn = useSession().token !== null;
  useReminderNotices(signedIn);
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only rounded-md bg-blue-700 px-4 py-2 text-white focus:not-sr-only focus:absolute focus:top-2 focus:start-2 focus:z-50"
      >
        <Trans>Skip to content</Trans>
      </a>
      <NavBar />
      <OfflineBanner />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <ErrorBoundary key={location}>
          <AppRoutes />
        </ErrorBoundary>
      </main>
      <NoticeRegion />
      <CommandLayer signedIn={signedIn} />
    </div>
  );
}

/**
 * `live`: updates from the user's other tabs and devices (main.tsx turns them on). The active
 * language is loaded before the first render (main.tsx, lib/i18n.ts).
 */
export function App({ live = false }: { live?: boolean }) {
  return (
    <I18nProvider i18n={i18n}>
      <Providers live={live}>
        <Shell />
      </Providers>
    </I18nProvider>
  );
}
