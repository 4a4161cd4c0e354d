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
  const filter = filters.data?.find((saved) => String(saved.id) === id) ?? null;
  const read = useMemo(() => (filter ? readQuery(filter.query, groups) : null), [filter, groups]);
  const shown = useMemo(() => (read?.filter ? filterTodos(read.filter, todos) : []), [read, todos]);

  if (id === 'new' || (editing && filter)) {
    return (
      <main className="mx-auto w-full max-w-4xl px-4 py-6">
        <h1 className="mb-4 text-2xl font-semibold text-slate-900 dark:text-slate-50">
          {filter ? `Edit ${filter.name}` : 'New filter'}
        </h1>
        <Suspense fallback={<LoadingText>Loading...</LoadingText>}>
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
  if (filters.isPending) return <LoadingText>Loading...</LoadingText>;
  if (!filter) {
    return (
      <main className="mx-auto w-full max-w-4xl px-4 py-6">
        <ErrorBanner message="This filter does not exist (any more)." />
      </main>
    );
  }
  return (
    <main className="mx-auto w-full max-w-4xl px-4 py-6">
      <div className="mb-2 flex flex-wrap items-center gap-3">
        <ColorDot color={filter.color} size={14} />
        <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-50">
          {filter.name} ({shown.length}
          {complete ? '' : '+'})
        </h1>
        <div className="ms-auto flex gap-2">
          <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
            Edit
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => remove.mutate(filter.id, { onSuccess: () => navigate('/todos') })}
          >
            Delete
          </Button>
        </div>
      </div>
      <p className="mb-2 font-mono text-sm text-slate-600 dark:text-slate-300">{filter.query}</p>
      <div className="mb-4 flex flex-wrap items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
        {filter.feed ? (
          <>
            <span>Calendar feed:</span>
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
            Make a calendar feed
          </Button>
        )}
      </div>
      {read?.error ? (
        <ErrorBanner message={`This filter cannot be read now: ${read.error}`} />
      ) : shown.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-300">No todos match this filter.</p>
      ) : (
        <ul
          aria-label={`Todos of ${filter.name}`}
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
                  {todo.dueDate}
                  {todo.dueTime ? ` ${todo.dueTime}` : ''}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
