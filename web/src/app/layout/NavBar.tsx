import { useEffect } from 'react';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import { Button } from '#web/components/Button';
import { useLogout } from '#web/features/auth/api/logout';
import { ThemeToggle } from '#web/features/theme/components/ThemeToggle';
import { cn } from '#web/lib/cn';
import { useSession } from '#web/lib/session-store';
import { calendarScreen } from '../screens';

const LINKS = [
  { href: '/todos', label: msg`Todos` },
  { href: '/calendar', label: msg`Calendar` },
  { href: '/statistics', label: msg`Stats` },
  { href: '/groups', label: msg`Groups` },
] as const;

/** Three sliders: settings, in few bytes (this bar is part of every first visit). */
function SettingsIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none">
      <path
        d="M4 6h16M4 12h16M4 18h16"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
      <circle cx="9" cy="6" r="2.2" fill="currentColor" />
      <circle cx="15" cy="12" r="2.2" fill="currentColor" />
      <circle cx="7" cy="18" r="2.2" fill="currentColor" />
    </svg>
  );
}

/**
 * "Settings" beside the theme toggle: an icon with its word, only the icon on phones (where the
 * word stays for screen readers).
 */
function SettingsLink({ current }: { current: boolean }) {
  const { t } = useLingui();
  return (
    <Link
      href="/settings"
      aria-current={current ? 'page' : undefined}
      title={t`Settings`}
      className={cn(
        'inline-flex min-h-9 min-w-9 items-center justify-center gap-2 rounded-md text-sm font-medium sm:px-3',
        current
          ? 'bg-blue-50 text-blue-800 dark:bg-slate-800 dark:text-blue-200'
          : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
      )}
    >
      <SettingsIcon />
      <span className="sr-only sm:not-sr-only">
        <Trans>Settings</Trans>
      </span>
    </Link>
  );
}

/**
 * The navigation bar: the product name, and with a token the Todos / Calendar / Stats / Groups links,
 * Settings and "Logout {name}"; the theme toggle always.
 */
export function NavBar() {
  const session = useSession();
  const [location] = useLocation();
  const logout = useLogout();
  const signedIn = session.token !== null;
  // The calendar's code ahead of its first opening, so it opens without "Loading..." (Safari
  // has no requestIdleCallback: a second on there).
  useEffect(() => {
    if (!signedIn) return;
    const preload = () => void calendarScreen.preload();
    if (window.requestIdleCallback) window.requestIdleCallback(preload);
    else setTimeout(preload, 1000);
  }, [signedIn]);
  const { t, i18n } = useLingui();
  const name = session.user ?? '';

  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2">
        <Link
          href={signedIn ? '/todos' : '/login'}
          className="rounded text-xl font-bold tracking-tight text-slate-900 dark:text-white"
        >
          Tally
        </Link>
        {signedIn && (
          <nav aria-label={t`Main`} className="order-last -mx-1 w-full sm:order-none sm:w-auto">
            <ul className="flex gap-1">
              {LINKS.map((link) => {
                const current = location === link.href;
                return (
                  <li key={link.href}>
                    <Link
                      href={link.href}
                      aria-current={current ? 'page' : undefined}
                      className={cn(
                        'inline-flex min-h-9 items-center rounded-md px-3 py-1.5 text-sm font-medium',
                        current
                          ? 'bg-blue-50 text-blue-800 dark:bg-slate-800 dark:text-blue-200'
                          : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
                      )}
                    >
                      {i18n._(link.label)}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
        )}
        <div className="ms-auto flex min-w-0 items-center gap-2">
          {signedIn && <SettingsLink current={location.startsWith('/settings')} />}
          <ThemeToggle />
          {signedIn && (
            <Button
              variant="outline"
              size="sm"
              onClick={() => logout.mutate()}
              disabled={logout.isPending}
              title={t`Logout ${name}`}
              // The name as one phrase: the name's own box would add spaces around it ("( name )").
              aria-label={t`Logout ${name}`}
              // A block box, not the usual flex one: the words stay whole in every language and
              // only a long name ends in an ellipsis.
              className="inline-block whitespace-nowrap"
            >
              <Trans>
                Logout{' '}
                <span className="inline-block max-w-[4.5rem] truncate align-bottom sm:max-w-[12rem]">
                  {name}
                </span>
              </Trans>
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
