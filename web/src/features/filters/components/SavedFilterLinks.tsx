import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import type { Group, SavedFilter, Todo } from '@tally/contract';
import { Link } from 'wouter';
import { ColorDot } from '#web/components/ColorDot';
import { useSavedFilters } from '../api/get-filters';
import { todosOfQuery } from '../lib/run-filter';

interface SavedFilterLinksProps {
  todos: readonly Todo[];
  groups: readonly Group[];
}

/**
 * The saved filters beside All, Today, Upcoming and the groups: each a link to its own page
 * (/filters/:id) with how many of the cached todos it shows, counted here so the count follows
 * every change at once, offline too; then "New filter". Without saved filters it takes no room
 * above the list (New filter stays in the command palette), so the list's rows keep their place.
 */
export default function SavedFilterLinks({ todos, groups }: SavedFilterLinksProps) {
  const filters = useSavedFilters();
  const counts = useMemo(
    () =>
      new Map(
        (filters.data ?? []).map((filter: SavedFilter) => [
          filter.id,
          todosOfQuery(filter.query, groups, todos).length,
        ]),
      ),
    [filters.data, groups, todos],
  );
  const { t } = useLingui();
  if (!filters.data?.length) return null;
  return (
    <nav aria-label={t`Saved filters`} className="mx-auto w-full max-w-4xl px-4 pt-3 sm:pt-5">
      <ul className="flex flex-wrap gap-2">
        {(filters.data ?? []).map((filter) => (
          <li key={filter.id}>
            <Link
              href={`/filters/${filter.id}`}
              className="inline-flex min-h-9 items-center gap-2 rounded-full border border-slate-300 px-3 text-sm text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
            >
              <ColorDot color={filter.color} size={10} />
              <span>
                {filter.name} ({counts.get(filter.id) ?? 0})
              </span>
            </Link>
          </li>
        ))}
        <li>
          <Link
            href="/filters/new"
            className="inline-flex min-h-9 items-center rounded-full border border-dashed border-slate-400 px-3 text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-slate-500 dark:text-slate-200 dark:hover:bg-slate-800"
          >
            <Trans>+ New filter</Trans>
          </Link>
        </li>
      </ul>
    </nav>
  );
}
