import { Trans, useLingui } from '@lingui/react/macro';
import { activeLocale, formatDue, localDate } from '#web/lib/date-format';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { Group, Todo } from '@tally/contract';
import { useLocation } from 'wouter';
import { Button } from '#web/components/Button';
import { ColorDot } from '#web/components/ColorDot';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { useSavedFilters } from '../api/get-filters';
import { useDeleteFilter, useMakeFilterFeed } from '../api/save-filter';
import { readQuery } from '../lib/run-filter';
import { filterTodos } from '@tally/contract/filter-query';

// The builder is needed only to make or change a filter: its own chunk.
const FilterBuilder = lazy(() => import('./FilterBuilder'));

interface FilterPageProps {
  /** A saved filter's id, or 'new'. */
  id: string;
  todos: readonly Todo[];
  groups: readonly Group[];
  /** Whether every page of the todos has arrived (else the count may grow). */
  complete: boolean;
}

/**
 * /filters/:id: a saved filter's todos, read from the todos the browser holds with the
 * contract's evaluator, so the page works offline and agrees with GET /api/todos?filter=.
 * /filters/new opens the builder.
 */
export function FilterPage({ id, todos, groups, complete }: FilterPageProps) {
  const [, navigate] = useLocation();
  const filters = useSavedFilters();
  const remove = useDeleteFilter();
  const makeFeed = useMakeFilterFeed();
  const [editing, setEditing] = useState(id === 'new');
  const { t } = useLingui();
  const filter = filters.data?.find((saved) => String(saved.id) === id) ?? null;
  const read = useMemo(() => (filter ? readQuery(filter.query, groups) : null), [filter, groups]);
  const shown = useMemo(() => (read?.filter ? filterTodos(read.filter, todos) : []), [read, todos]);
  const filterName = filter?.name;
  const shownCount = shown.length.toLocaleString(activeLocale());
  const readError = read?.error;

  if (id === 'new' || (editing && filter)) {
    return (
      <main className="mx-auto w-full max-w-4xl px-4 py-6">
        <h1 className="mb-4 text-2xl font-semibold text-slate-900 dark:text-slate-50">
          {filter ? t`Edit ${filterName}` : t`New filter`}
        </h1>
        <Suspense fallback={<LoadingText>{t`Loading...`}</LoadingText>}>
          <FilterBuilder
            groups={groups}
            editing={filter}
            onSaved={(saved) => {
              setEditing(false);
              navigate(`/filters/${saved.id}`);
            }}
            onCancel={() => (filter ? setEditing(false) : navigate('/todos'))}
          />
        </Suspense>
      </main>
    );
  }
  if (filters.isPending) return <LoadingText>{t`Loading...`}</LoadingText>;
  if (!filter) {
    return (
      <main className="mx-auto w-full max-w-4xl px-4 py-6">
        <ErrorBanner message={t`This filter does not exist (any more).`} />
      </main>
    );
  }
  return (
    <main className="mx-auto w-full max-w-4xl px-4 py-6">
      <div className="mb-2 flex flex-wrap items-center gap-3">
        <ColorDot color={filter.color} size={14} />
        <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-50">
          {/* Strings, not <Trans>: a name's "<b>" stays text rather than markup. */}
          {complete ? t`${filterName} (${shownCount})` : t`${filterName} (${shownCount}+)`}
        </h1>
        <div className="ms-auto flex gap-2">
          <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
            <Trans>Edit</Trans>
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => remove.mutate(filter.id, { onSuccess: () => navigate('/todos') })}
          >
            <Trans>Delete</Trans>
          </Button>
        </div>
      </div>
      <p className="mb-2 font-mono text-sm text-slate-600 dark:text-slate-300">{filter.query}</p>
      <div className="mb-4 flex flex-wrap items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
        {filter.feed ? (
          <>
            <span>
              <Trans>Calendar feed:</Trans>
            </span>
            <code className="break-all">
              {new URL(filter.feed.path, window.location.origin).href}
            </code>
          </>
        ) : (
          <Button
            variant="secondary"
            size="sm"
            disabled={makeFeed.isPending}
            onClick={() => makeFeed.mutate(filter.id)}
          >
            <Trans>Make a calendar feed</Trans>
          </Button>
        )}
      </div>
      {read?.error ? (
        <ErrorBanner message={t`This filter cannot be read now: ${readError}`} />
      ) : shown.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-300">
          <Trans>No todos match this filter.</Trans>
        </p>
      ) : (
        <ul
          aria-label={t`Todos of ${filterName}`}
          className="divide-y divide-slate-200 dark:divide-slate-700"
        >
          {shown.map((todo) => (
            <li key={todo.id} className="flex items-baseline gap-3 py-2">
              <span
                className={
                  todo.completed
                    ? 'text-slate-500 line-through dark:text-slate-400'
                    : 'text-slate-900 dark:text-slate-100'
                }
              >
                {todo.title}
              </span>
              {todo.dueDate && (
                <span className="ms-auto text-sm text-slate-600 dark:text-slate-300">
                  {formatDue(todo.dueDate, todo.dueTime, localDate(new Date()))}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
