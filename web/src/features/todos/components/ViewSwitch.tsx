import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { cn } from '#web/lib/cn';

export type TodosView = 'all' | 'today' | 'upcoming';

const VIEWS: { view: TodosView; label: MessageDescriptor; href: string }[] = [
  { view: 'all', label: msg`All`, href: '/todos' },
  { view: 'today', label: msg`Today`, href: '/todos?view=today' },
  { view: 'upcoming', label: msg`Upcoming`, href: '/todos?view=upcoming' },
];

/** The view named by the address's ?view= (All without one, or with one it does not know). */
export function viewOfSearch(search: string): TodosView {
  const view = new URLSearchParams(search).get('view');
  return view === 'today' || view === 'upcoming' ? view : 'all';
}

/**
 * All / Today / Upcoming, as links: the view is part of the address, so it survives a reload
 * and the browser's back and forward.
 */
export function ViewSwitch({ active }: { active: TodosView }) {
  const { t, i18n } = useLingui();
  return (
    <nav aria-label={t`Todo views`}>
      <ul className="inline-flex rounded-lg border border-slate-400 bg-white p-0.5 dark:border-slate-500 dark:bg-slate-900">
        {VIEWS.map(({ view, label, href }) => (
          <li key={view}>
            <Link
              href={href}
              aria-current={view === active ? 'page' : undefined}
              className={cn(
                // Narrow on a phone, where it shares a row with Trash and Add Todo; 44 px high there.
                'inline-flex min-h-10 items-center rounded-md px-3 text-sm font-medium sm:min-h-9 sm:px-4',
                view === active
                  ? 'bg-blue-700 text-white dark:bg-blue-300 dark:text-slate-950'
                  : 'text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800',
              )}
            >
              {i18n._(label)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
