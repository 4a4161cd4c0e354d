import { useDeferredValue, useId, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import type { Group, Todo } from '@tally/contract';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { useCommand } from '#web/lib/commands';
import { useDeleteTodo } from '../api/delete-todo';
import { useTodos } from '../api/get-todos';
import { useTodoSearch } from '../api/search-todos';
import { useNow } from '../hooks/use-now';
import { useSearchQuery } from '../hooks/use-search-query';
import { dateOf } from '../lib/dates';
import { DeleteTodoDialog } from './DeleteTodoDialog';
import { FilterTabs, tabId } from './FilterTabs';
import { NewTodoForm } from './NewTodoForm';
import { SearchBox, SearchStatus } from './SearchBox';
import { TodoItem } from './TodoItem';
import { TodoViewList } from './TodoViewList';
import { viewOfSearch, ViewSwitch } from './ViewSwitch';
import { matchesFilter, sortNewestFirst, type TodoFilter } from '../lib/filters';

const EMPTY_TEXTS = {
  all: 'No todos yet. Add one above!',
  filtered: 'No todos in this category',
} as const;

interface TodosPageProps {
  /** The user's groups (loaded by the route), for tabs, selects and badges. */
  groups: readonly Group[];
  groupsPending: boolean;
}

/**
 * /todos: the views All (filter tabs and the list, newest first), Today and Upcoming (by due
 * date, from ?view=), and the Add Todo form.
 */
export function TodosPage({ groups, groupsPending }: TodosPageProps) {
  const view = viewOfSearch(useSearch());
  const now = useNow();
  const deleteTodo = useDeleteTodo();
  const [selectedFilter, setSelectedFilter] = useState<TodoFilter>('all');
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<Todo | null>(null);
  const addButtonRef = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const [query, setQuery] = useSearchQuery();

  // The global shortcuts and the command palette (web/src/app) reach this screen through these.
  useCommand('newTodo', () => {
    if (formOpen) formRef.current?.querySelector('input')?.focus();
    else setFormOpen(true);
  });
  useCommand('showFilter', setSelectedFilter);

  // A group filter whose group is gone (deleted elsewhere) falls back to All.
  const filter: TodoFilter =
    typeof selectedFilter === 'number' && !groups.some((group) => group.id === selectedFilter)
      ? 'all'
      : selectedFilter;

  const header = (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-100">Todos</h1>
      <Button
        ref={addButtonRef}
        variant={formOpen ? 'secondary' : 'primary'}
        aria-expanded={formOpen}
        onClick={() => setFormOpen((open) => !open)}
      >
        {formOpen ? 'Cancel' : 'Add Todo'}
      </Button>
    </div>
  );

  const form = formOpen && (
    <div ref={formRef} className="mb-6">
      <NewTodoForm
        groups={groups}
        defaultGroupId={view === 'all' && typeof filter === 'number' ? filter : null}
        defaultDueDate={view === 'today' ? dateOf(now) : ''}
        now={now}
        onCreated={() => {
          setFormOpen(false);
          addButtonRef.current?.focus();
        }}
      />
    </div>
  );

  const body =
    view === 'all' ? (
      <AllTodos
        query={query}
        groups={groups}
        groupsPending={groupsPending}
        filter={filter}
        onFilterChange={setSelectedFilter}
        now={now}
        onDelete={setDeleting}
      />
    ) : (
      <TodoViewList
        view={view}
        groups={groups}
        groupsPending={groupsPending}
        now={now}
        onDelete={setDeleting}
      />
    );

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:py-8">
      {header}
      <ViewSwitch active={view} />
      {view === 'all' && <SearchBox query={query} onQueryChange={setQuery} />}
      {form}
      {body}
      <DeleteTodoDialog
        todo={deleting}
        pending={deleteTodo.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={(todo) =>
          deleteTodo.mutate(todo.id, {
            onSettled: () => setDeleting(null),
          })
        }
      />
    </div>
  );
}

const NO_TODOS: readonly Todo[] = [];

interface AllTodosProps {
  /** The search box's text: the list shows only what matches it. */
  query: string;
  groups: readonly Group[];
  groupsPending: boolean;
  filter: TodoFilter;
  onFilterChange: (filter: TodoFilter) => void;
  now: Date;
  onDelete: (todo: Todo) => void;
}

/** All: SPEC's screen, the filter tabs with their counts and the whole list, newest first. */
function AllTodos({
  query,
  groups,
  groupsPending,
  filter,
  onFilterChange,
  now,
  onDelete,
}: AllTodosProps) {
  const todos = useTodos();
  const panelId = useId();
  // Typing stays immediate; the list follows as soon as React has time (issue 14).
  const searched = useDeferredValue(query);
  const search = useTodoSearch(todos.data ?? NO_TODOS, searched);
  let body;
  if (todos.isPending || groupsPending) {
    body = <LoadingText>Loading...</LoadingText>;
  } else if (todos.isError) {
    body = (
      <ErrorBanner
        message={errorMessage(todos.error, 'Load todos')}
        onRetry={() => void todos.refetch()}
      />
    );
  } else {
    const visible = sortNewestFirst(search.results.filter((todo) => matchesFilter(todo, filter)));
    let emptyText: string = filter === 'all' ? EMPTY_TEXTS.all : EMPTY_TEXTS.filtered;
    if (search.terms.length > 0) emptyText = `No todos match "${searched.trim()}"`;
    body = (
      <>
        <FilterTabs
          todos={todos.data}
          groups={groups}
          active={filter}
          onChange={onFilterChange}
          panelId={panelId}
        />
        <SearchStatus
          active={search.terms.length > 0}
          count={visible.length}
          searching={search.searching}
        />
        <div
          id={panelId}
          role="tabpanel"
          aria-labelledby={tabId(filter)}
          tabIndex={-1}
          className="mt-4"
        >
          {visible.length === 0 ? (
            <p className="py-8 text-center text-slate-600 dark:text-slate-400">{emptyText}</p>
          ) : (
            <ul
              aria-label="Todos"
              className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-700 dark:border-slate-700 dark:bg-slate-900"
            >
              {visible.map((todo) => (
                <TodoItem key={todo.id} todo={todo} groups={groups} onDelete={onDelete} now={now} />
              ))}
            </ul>
          )}
        </div>
      </>
    );
  }

  return body;
}
