import { i18n as activeI18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { Group, Todo } from '@tally/contract';
import { BULK_IDS_MAX } from '@tally/contract/constants';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { ERROR_MESSAGES, errorMessage, probeServer } from '#web/lib/api-client';
import { useCommand } from '#web/lib/commands';
import { activeLocale } from '#web/lib/date-format';
import { useDeleteTodo } from '../api/delete-todo';
import { useMoveTodo } from '../api/move-todo';
import { useNow } from '../hooks/use-now';
import { closeTodo, openTodo, useOpenTodo } from '../hooks/use-open-todo';
import { useSearchQuery } from '../hooks/use-search-query';
import { useSelection } from '../hooks/use-selection';
import { useTodoList } from '../hooks/use-todo-list';
import { dateOf } from '../lib/dates';
import { DeleteTodoDialog } from './DeleteTodoDialog';
import { FilterTabs, tabId } from './FilterTabs';
import { HideCompletedSwitch } from './HideCompletedSwitch';
import { SearchBox, SearchStatus } from './SearchBox';
import { SortSelect } from './SortSelect';
import { TodoList } from './TodoList';
import { TodoViewList } from './TodoViewList';
import { viewOfSearch, ViewSwitch } from './ViewSwitch';
import { draftOfSearch, type ShareDraft } from '../lib/share-draft';
import { countOf, type TodoFilter } from '../lib/filters';

/**
 * The new-todo form, loaded on the first Add Todo (precached by the service worker): with issue
 * 29's fields, sort and manual order, /todos stays within its bundle budget this way.
 */
const NewTodoForm = lazy(() =>
  import('./NewTodoForm').then((module) => ({ default: module.NewTodoForm })),
);

/**
 * The one-line quick add, loaded right after the screen (bundle budget): until it is there, a
 * box of its size keeps the list from moving.
 */
const QuickAddBar = lazy(() =>
  import('./QuickAddBar').then((module) => ({ default: module.QuickAddBar })),
);

/** A todo's detail view, loaded when a title is first clicked (bundle budget). */
const TodoDetail = lazy(() =>
  import('./TodoDetail').then((module) => ({ default: module.TodoDetail })),
);

/**
 * The row now at `place` in the All list (or the one before, when the last row went): where the
 * focus goes after a delete, rather than to the page's start.
 */
function rowAt(place: number): HTMLElement | null {
  const row = (index: number) =>
    document.querySelector<HTMLElement>(
      `ul[aria-label="${activeI18n._(msg`Todos`)}"] > li[data-index="${index}"]`,
    );
  return row(place) ?? row(place - 1);
}

/** Selection mode's bar, loaded when selection mode is first turned on (bundle budget). */
const BulkBar = lazy(() => import('./BulkBar').then((module) => ({ default: module.BulkBar })));

const EMPTY_TEXTS = {
  all: msg`No todos yet. Add one above!`,
  filtered: msg`No todos in this category`,
  allCompleted: msg`Every todo here is completed (Hide completed is on).`,
} as const;

interface TodosPageProps {
  /** The user's groups (loaded by the route), for tabs, selects and badges. */
  groups: readonly Group[];
  groupsPending: boolean;
  /** The user's tag names, which quick add suggests after `@`. */
  tags: readonly string[];
  /** Creates a group quick add names ("Create group Garden"). */
  onCreateGroup: (name: string) => Promise<unknown>;
}

/**
 * /todos: the views All (filter tabs and the list, newest first), Today and Upcoming (by due
 * date, from ?view=), and the Add Todo form.
 */
export function TodosPage({ groups, groupsPending, tags, onCreateGroup }: TodosPageProps) {
  const search = useSearch();
  const view = viewOfSearch(search);
  const [, navigate] = useLocation();
  const { t } = useLingui();
  const now = useNow();
  const deleteTodo = useDeleteTodo();
  const [selectedFilter, setSelectedFilter] = useState<TodoFilter>('all');
  const [formOpen, setFormOpen] = useState(false);
  // Something shared (the share route's draft in the address) opens the form filled in; the
  // address then loses it, so a reload does not open it again.
  const [draft, setDraft] = useState<ShareDraft | null>(null);
  const [draftSearch, setDraftSearch] = useState<string | null>(null);
  const arrived = draftOfSearch(search);
  if (arrived && search !== draftSearch) {
    setDraftSearch(search);
    setDraft(arrived);
    setFormOpen(true);
  }
  useEffect(() => {
    if (draftOfSearch(search)) navigate('/todos', { replace: true });
  }, [search, navigate]);
  const [deleting, setDeleting] = useState<Todo | null>(null);
  // The deleted row's place in the list, for the focus once it is gone.
  const deletedPlace = useRef<number | null>(null);
  const askDelete = useCallback((todo: Todo) => {
    const row =
      document.activeElement instanceof HTMLElement
        ? document.activeElement.closest<HTMLElement>('li[data-index]')
        : null;
    deletedPlace.current = row ? Number(row.dataset.index) : null;
    setDeleting(todo);
  }, []);
  const opened = useOpenTodo();
  // The detail view belongs to this screen: leaving it closes the view.
  useEffect(() => closeTodo, []);
  const addButtonRef = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const [query, setQuery] = useSearchQuery();

  // The global shortcuts and the command palette (web/src/app) reach this screen through these.
  useCommand('newTodo', () => {
    if (formOpen) formRef.current?.querySelector('input')?.focus();
    else setFormOpen(true);
  });
  useCommand('showFilter', setSelectedFilter);
  useCommand('openTodo', openTodo);

  // A group filter whose group is gone (deleted elsewhere) falls back to All.
  const filter: TodoFilter =
    typeof selectedFilter === 'number' && !groups.some((group) => group.id === selectedFilter)
      ? 'all'
      : selectedFilter;

  const header = (
    // Dense (docs/product.md, Todos screen): the heading, the view switch, Trash and Add Todo share
    // one row; on a phone the heading is for screen readers only (the menu above says Todos
    // already). Where a language's words are longer than the row, Add Todo wraps to a line of its
    // own rather than widening the page.
    <div className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-2 sm:mb-3">
      <h1 className="sr-only text-2xl font-semibold text-slate-900 sm:not-sr-only dark:text-slate-100">
        <Trans>Todos</Trans>
      </h1>
      <ViewSwitch active={view} />
      <Link
        href="/trash"
        className="ms-auto inline-flex min-h-11 items-center text-sm font-medium text-blue-700 underline underline-offset-2 sm:min-h-0 dark:text-blue-300"
      >
        <Trans>Trash</Trans>
      </Link>
      <Button
        ref={addButtonRef}
        variant={formOpen ? 'secondary' : 'primary'}
        aria-expanded={formOpen}
        onClick={() => {
          setDraft(null);
          setFormOpen((open) => !open);
        }}
        className="min-h-11 shrink-0 px-3 sm:min-h-10 sm:px-4"
      >
        {formOpen ? t`Cancel` : t`Add Todo`}
      </Button>
    </div>
  );

  const form = formOpen && (
    <div
      ref={formRef}
      className="mb-6"
      // Escape closes the form as Cancel does (the focus goes back to the toggle).
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || event.defaultPrevented) return;
        event.preventDefault();
        setDraft(null);
        setFormOpen(false);
        addButtonRef.current?.focus();
      }}
    >
      <Suspense fallback={<LoadingText>{t`Loading...`}</LoadingText>}>
        <NewTodoForm
          // A new draft is a new form.
          key={draft ? `${draft.title}\n${draft.description}` : ''}
          {...(draft ? { draft } : {})}
          groups={groups}
          defaultGroupId={view === 'all' && typeof filter === 'number' ? filter : null}
          defaultDueDate={view === 'today' ? dateOf(now) : ''}
          now={now}
          onCreated={() => {
            setDraft(null);
            setFormOpen(false);
            addButtonRef.current?.focus();
          }}
        />
      </Suspense>
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
        onDelete={askDelete}
      />
    ) : (
      <TodoViewList
        view={view}
        groups={groups}
        groupsPending={groupsPending}
        now={now}
        onDelete={askDelete}
      />
    );

  return (
    // On a phone the page ends with room for the floating "+", so it never covers the last row.
    <div className="mx-auto w-full max-w-4xl px-4 pt-3 pb-36 sm:py-5">
      {header}
      {/* Quick add and search share a row; on a phone the search box is the narrower. */}
      <div className="mb-2 flex flex-wrap gap-2 sm:mb-3 sm:flex-nowrap">
        <Suspense fallback={<div className="min-h-11 min-w-0 flex-1 sm:min-h-10" />}>
          <QuickAddBar
            groups={groups}
            defaultGroupId={view === 'all' && typeof filter === 'number' ? filter : null}
            defaultDueDate={view === 'today' ? dateOf(now) : ''}
            now={now}
            tags={tags}
            onCreateGroup={onCreateGroup}
          />
        </Suspense>
        {view === 'all' && <SearchBox query={query} onQueryChange={setQuery} />}
      </div>
      {form}
      {body}
      {opened && (
        <Suspense fallback={null}>
          <TodoDetail todo={opened} groups={groups} onClose={closeTodo} />
        </Suspense>
      )}
      <DeleteTodoDialog
        todo={deleting}
        pending={deleteTodo.isPending}
        onCancel={() => setDeleting(null)}
        fallbackFocus={() => (deletedPlace.current === null ? null : rowAt(deletedPlace.current))}
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

/**
 * All: the original screen, the filter tabs with their counts and the whole list, newest first. The
 * list arrives page by page (api/get-todos.ts); until the last page is in, the counts are the
 * server's, so they are of all todos from the first screen on. Hide completed (remembered in
 * this browser) hides rows, not counts.
 */
function AllTodos({
  query,
  groups,
  groupsPending,
  filter,
  onFilterChange,
  now,
  onDelete,
}: AllTodosProps) {
  const {
    todos,
    complete,
    serverCounts,
    counts,
    searched,
    search,
    sort,
    setSort,
    hideCompleted,
    setHideCompleted,
    showLater,
    setShowLater,
    completedOpen,
    setCompletedOpen,
    shown,
    visible,
    hasLater,
    hiddenMatches,
    open,
    done,
  } = useTodoList(query, filter, now);
  const panelId = useId();
  const { t, i18n } = useLingui();
  const moveTodo = useMoveTodo();
  const completedId = useId();
  const selection = useSelection(shown);
  // The open todos and the Completed part are one list to act on: their rows behave alike.
  const listProps = {
    groups,
    now,
    onDelete,
    selecting: selection.selecting,
    selected: selection.selected,
    onSelect: selection.onSelect,
    ...(sort === 'manual' ? { onMove: moveTodo.mutate } : {}),
  };
  // What a bulk action acts on: the picked rows the tab still shows.
  const picked = useMemo(
    () =>
      selection.selected.size === 0
        ? NO_TODOS
        : shown.filter((todo) => selection.selected.has(todo.id)),
    [shown, selection.selected],
  );

  if (todos.isPending && todos.fetchStatus === 'paused') {
    // Nothing saved to show and no server to ask: say so, rather than load for ever (the line
    // under the navigation bar says why); the list comes as soon as the server answers.
    return <ErrorBanner message={ERROR_MESSAGES.network} onRetry={() => void probeServer()} />;
  }
  if (todos.isPending || groupsPending || (!complete && serverCounts.isPending)) {
    return <LoadingText>{t`Loading...`}</LoadingText>;
  }
  if (todos.isError) {
    return (
      <ErrorBanner
        message={errorMessage(todos.error, msg`Load todos failed`)}
        onRetry={() => void todos.refetch()}
      />
    );
  }

  const doneCount = done.length.toLocaleString(activeLocale());
  let emptyText: string = i18n._(filter === 'all' ? EMPTY_TEXTS.all : EMPTY_TEXTS.filtered);
  if (hideCompleted && countOf(counts, filter) > 0) emptyText = i18n._(EMPTY_TEXTS.allCompleted);
  const searchedText = searched.trim();
  if (search.terms.length > 0) emptyText = t`No todos match "${searchedText}"`;
  return (
    <>
      {/*
        On a phone two rows, each control 44 px high and none clipped: the tabs (scrolling
        sideways) with Sort and Select, then Hide completed and Show later todos (a row for the
        sort alone would leave a phone less than 8 rows of the list). From 640 px one row that
        wraps; tabs too many for it take a row of their own and wrap inside it.
      */}
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <div className="min-w-0 flex-1 sm:flex-auto">
          <FilterTabs
            counts={counts}
            groups={groups}
            active={filter}
            onChange={onFilterChange}
            panelId={panelId}
          />
        </div>
        <div className="order-last flex w-full flex-wrap items-center gap-x-3 gap-y-2 sm:order-none sm:ms-auto sm:w-auto">
          <HideCompletedSwitch on={hideCompleted} onChange={setHideCompleted} />
          {hasLater && (
            <HideCompletedSwitch
              on={showLater}
              onChange={setShowLater}
              label={t`Show later todos`}
            />
          )}
        </div>
        <SortSelect value={sort} onChange={setSort} />
        <Button
          variant={selection.selecting ? 'selected' : 'outline'}
          size="sm"
          aria-pressed={selection.selecting}
          onClick={() => selection.setSelecting(!selection.selecting)}
          className="min-h-11 shrink-0 sm:min-h-9"
        >
          <Trans>Select</Trans>
        </Button>
      </div>
      <SearchStatus
        active={search.terms.length > 0}
        count={visible.length}
        searching={search.searching}
        hidden={hiddenMatches}
      />
      <div
        id={panelId}
        role="tabpanel"
        aria-labelledby={tabId(filter)}
        tabIndex={-1}
        className="mt-2 sm:mt-3"
      >
        {selection.selecting && (
          <Suspense fallback={null}>
            <BulkBar
              picked={picked}
              shown={shown.length}
              groups={groups}
              today={dateOf(now)}
              onSelectAll={() => selection.selectAll(BULK_IDS_MAX)}
              onClear={selection.clear}
              onDone={() => selection.setSelecting(false)}
            />
          </Suspense>
        )}
        {visible.length === 0
          ? complete && (
              <p className="py-8 text-center text-slate-600 dark:text-slate-400">{emptyText}</p>
            )
          : open.length > 0 && <TodoList todos={open} {...listProps} />}
        {done.length > 0 && (
          <section aria-labelledby={`${completedId}-toggle`} className="mt-3">
            <h2 className="text-base">
              <button
                type="button"
                id={`${completedId}-toggle`}
                aria-expanded={completedOpen}
                aria-controls={completedId}
                onClick={() => setCompletedOpen(!completedOpen)}
                className="inline-flex min-h-11 items-center gap-2 rounded-md px-1 text-sm font-semibold text-slate-800 dark:text-slate-100"
              >
                <svg
                  viewBox="0 0 16 16"
                  width="14"
                  height="14"
                  aria-hidden="true"
                  className={
                    completedOpen ? 'rotate-90 transition-transform' : 'transition-transform'
                  }
                >
                  <path d="M6 3l5 5-5 5" fill="none" stroke="currentColor" strokeWidth="2" />
                </svg>
                <Trans>Completed ({doneCount})</Trans>
              </button>
            </h2>
            <div id={completedId} hidden={!completedOpen} className="mt-1">
              {completedOpen && <TodoList label={t`Completed todos`} todos={done} {...listProps} />}
            </div>
          </section>
        )}
        {!complete && <LoadingText>{t`Loading more todos...`}</LoadingText>}
      </div>
    </>
  );
}
