import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useDeferredValue, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { ColorDot } from '#web/components/ColorDot';
import { useLogout } from '#web/features/auth/api/logout';
import { useSavedFilters } from '#web/features/filters/api/get-filters';
import { useGroups } from '#web/features/groups/api/get-groups';
import { toggleTheme, useTheme } from '#web/features/theme/hooks/use-theme';
import { useLoadedTodos, useTodoSearch } from '#web/features/todos/api/search-todos';
import { PRIORITY_NAMES } from '#web/features/todos/lib/priority-names';
import { normalizeSearchText } from '#web/features/todos/lib/search';
import { cn } from '#web/lib/cn';
import type { TodoSort } from '@tally/contract/constants';
import { hasCommand, runCommand, type PageCommands } from '#web/lib/commands';

/** How many todos the palette lists for a query (the /todos search shows them all). */
const TODO_RESULTS = 8;

interface Item {
  id: string;
  section: 'Go to' | 'Filter' | 'Actions' | 'Todos';
  label: string;
  /** Shown after the label, dimmed: a todo's priority and tags. */
  detail?: string;
  /** More words it is found by ("stats" for Statistics). */
  keywords?: string;
  color?: string;
  run: () => void;
}

const SECTIONS: readonly Item['section'][] = ['Todos', 'Go to', 'Filter', 'Actions'];

/** The sections' headings, which a query matches too ("go to" finds the screens). */
const SECTION_NAMES: Record<Item['section'], MessageDescriptor> = {
  Todos: msg`Todos`,
  'Go to': msg`Go to`,
  Filter: msg`Filter`,
  Actions: msg`Actions`,
};

/** The sorts of /todos as the palette offers them, with words they are found by. */
const SORTS: readonly { sort: TodoSort; label: MessageDescriptor; keywords: string }[] = [
  { sort: 'created', label: msg`Sort by newest first`, keywords: 'order created' },
  { sort: 'due', label: msg`Sort by due date`, keywords: 'order deadline' },
  { sort: 'priority', label: msg`Sort by priority`, keywords: 'order important p1' },
  { sort: 'title', label: msg`Sort by title`, keywords: 'order alphabetical name' },
  { sort: 'manual', label: msg`Sort manually`, keywords: 'order drag position' },
];

const SCREENS = [
  { label: msg`Todos`, href: '/todos', keywords: 'all list' },
  { label: msg`Today`, href: '/todos?view=today', keywords: 'due overdue' },
  { label: msg`Upcoming`, href: '/todos?view=upcoming', keywords: 'due week' },
  { label: msg`Groups`, href: '/groups', keywords: 'manage' },
  { label: msg`Statistics`, href: '/statistics', keywords: 'stats insights' },
  { label: msg`Settings`, href: '/settings', keywords: 'account password sessions export' },
  { label: msg`Trash`, href: '/trash', keywords: 'deleted restore bin' },
] as const;

interface CommandPaletteProps {
  onClose: () => void;
  onShowShortcuts: () => void;
}

/**
 * Ctrl/Cmd+K: go to a screen, switch the /todos group filter, run an action, or find a todo by
 * title. WAI-ARIA's combobox with a list box popup: the focus stays in the text box, the arrows
 * move the active option (aria-activedescendant), Enter runs it, Escape closes, and the focus
 * returns to where it was.
 */
export default function CommandPalette({ onClose, onShowShortcuts }: CommandPaletteProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const [location, navigate] = useLocation();
  const search = useSearch();
  const groups = useGroups();
  const savedFilters = useSavedFilters();
  const theme = useTheme();
  const logout = useLogout();
  const [query, setQuery] = useState('');
  const { t, i18n } = useLingui();
  const [active, setActive] = useState(0);
  const searched = useDeferredValue(query);
  // Enter pressed before the list caught up with what was typed: chosen once it has.
  const enterPending = useRef(false);
  const loaded = useLoadedTodos();
  const todoSearch = useTodoSearch(loaded, searched);
  // Every tag of the loaded todos, once each (a tag is one whatever its case).
  const tags = [
    ...new Map(loaded.flatMap((todo) => todo.tags).map((tag) => [tag.toLowerCase(), tag])).values(),
  ].sort((a, b) => a.localeCompare(b));
  const listId = useId();
  const optionId = (index: number) => `${listId}-${index}`;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    returnTo.current =
      document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    inputRef.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
    };
  }, []);

  /** Closes the palette, gives the focus back, then runs the chosen item (which may move it). */
  const finish = (item?: Item) => {
    dialogRef.current?.close();
    const back = returnTo.current;
    if (back?.isConnected) back.focus();
    else document.getElementById('main')?.focus();
    onClose();
    item?.run();
  };

  /** /todos' All view, where the filter tabs are (a search there stays). */
  const showFilter = (filter: PageCommands['showFilter']) => {
    if (location !== '/todos') navigate('/todos');
    else {
      const params = new URLSearchParams(search);
      if (params.has('view')) {
        params.delete('view');
        const rest = params.toString();
        navigate(rest ? `/todos?${rest}` : '/todos');
      }
    }
    runCommand('showFilter', filter);
  };

  const items: Item[] = [
    ...todoSearch.results
      .slice(0, todoSearch.terms.length > 0 ? TODO_RESULTS : 0)
      .map((todo): Item => ({
        id: `todo-${todo.id}`,
        section: 'Todos',
        label: todo.title,
        detail: [
          todo.priority > 0 ? i18n._(PRIORITY_NAMES[todo.priority] ?? PRIORITY_NAMES[0]) : '',
          ...todo.tags.map((tag) => `@${tag}`),
        ]
          .filter(Boolean)
          .join(' '),
        // The todo itself, in its detail view, over the list as it was.
        run: () => {
          if (location !== '/todos') navigate('/todos');
          runCommand('openTodo', todo);
        },
      })),
    ...SCREENS.map((screen): Item => ({
      id: `go-${screen.href}`,
      section: 'Go to',
      label: i18n._(screen.label),
      keywords: screen.keywords,
      run: () => navigate(screen.href),
    })),
    { id: 'filter-all', section: 'Filter', label: t`All todos`, run: () => showFilter('all') },
    {
      id: 'filter-none',
      section: 'Filter',
      label: t`No Group`,
      keywords: 'ungrouped',
      run: () => showFilter('none'),
    },
    ...(groups.data ?? []).map((group): Item => ({
      id: `filter-${group.id}`,
      section: 'Filter',
      label: group.name,
      keywords: 'group',
      color: group.color,
      run: () => showFilter(group.id),
    })),
    ...(savedFilters.data ?? []).map((filter): Item => ({
      id: `saved-filter-${filter.id}`,
      section: 'Filter',
      label: filter.name,
      detail: filter.query,
      keywords: 'saved filter query',
      color: filter.color,
      run: () => navigate(`/filters/${filter.id}`),
    })),
    {
      id: 'saved-filter-new',
      section: 'Actions',
      label: t`New filter`,
      keywords: 'saved filter query builder',
      run: () => navigate('/filters/new'),
    },
    // A tag's todos: search covers tags (docs/product.md, Search).
    ...tags.map((tag): Item => ({
      id: `tag-${tag.toLowerCase()}`,
      section: 'Filter',
      label: `@${tag}`,
      keywords: 'tag label',
      run: () => {
        navigate(`/todos?q=${encodeURIComponent(tag)}`);
        runCommand('showFilter', 'all');
      },
    })),
    ...(hasCommand('setSort')
      ? SORTS.map(({ sort, label, keywords }): Item => ({
          id: `sort-${sort}`,
          section: 'Actions',
          label: i18n._(label),
          keywords,
          run: () => runCommand('setSort', sort),
        }))
      : []),
    {
      id: 'new-todo',
      section: 'Actions',
      label: t`New todo`,
      keywords: 'add create',
      run: () => {
        if (!hasCommand('newTodo')) navigate('/todos');
        runCommand('newTodo');
      },
    },
    {
      id: 'theme',
      section: 'Actions',
      label: theme.resolved === 'dark' ? t`Switch to light theme` : t`Switch to dark theme`,
      keywords: 'theme toggle dark light mode',
      run: toggleTheme,
    },
    ...(hasCommand('toggleHideCompleted')
      ? [
          {
            id: 'hide-completed',
            section: 'Actions',
            label: t`Hide or show completed todos`,
            keywords: 'done finished',
            run: () => runCommand('toggleHideCompleted'),
          } satisfies Item,
        ]
      : []),
    {
      id: 'shortcuts',
      section: 'Actions',
      label: t`Keyboard shortcuts`,
      keywords: 'help keys',
      run: onShowShortcuts,
    },
    {
      id: 'logout',
      section: 'Actions',
      label: t`Log out`,
      keywords: 'logout sign out',
      run: () => logout.mutate(),
    },
  ];

  const terms = todoSearch.terms;
  const shown = items.filter((item) => {
    if (item.section === 'Todos' || terms.length === 0) return true;
    const section = i18n._(SECTION_NAMES[item.section]);
    const text = normalizeSearchText(`${section} ${item.label} ${item.keywords ?? ''}`);
    return terms.every((term) => text.includes(term));
  });
  const activeIndex = shown.length === 0 ? -1 : Math.min(active, shown.length - 1);
  const typed = query.trim();

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (last < 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + shown.length) % shown.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (searched !== query) {
        enterPending.current = true;
        return;
      }
      const item = shown[activeIndex];
      if (item) finish(item);
    }
  };

  // A fast typist's Enter runs what the list shows for the whole query, not for a part of it.
  useEffect(() => {
    if (!enterPending.current || searched !== query) return;
    enterPending.current = false;
    const item = shown[activeIndex];
    if (item) finish(item);
  });

  // Scroll the active option into view as the arrows move it.
  useEffect(() => {
    if (activeIndex < 0) return;
    document.getElementById(optionId(activeIndex))?.scrollIntoView?.({ block: 'nearest' });
  });

  return (
    <dialog
      ref={dialogRef}
      aria-label={t`Command palette`}
      onCancel={(event) => {
        event.preventDefault();
        finish();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) finish();
      }}
      className={
        'mx-auto mt-[12dvh] w-[calc(100%-2rem)] max-w-xl rounded-lg bg-white p-0 text-slate-900 ' +
        'shadow-xl backdrop:bg-black/60 dark:bg-slate-900 dark:text-slate-100'
      }
    >
      <div className="border-b border-slate-200 p-2 dark:border-slate-700">
        <input
          role="combobox"
          aria-label={t`Command or todo`}
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
          ref={inputRef}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          placeholder={t`Type a command or a todo's title`}
          autoComplete="off"
          spellCheck={false}
          className={
            'block w-full rounded-md bg-transparent px-3 py-2 text-base text-slate-900 ' +
            'placeholder:text-slate-600 dark:text-slate-100 dark:placeholder:text-slate-400'
          }
        />
      </div>
      <div
        id={listId}
        role="listbox"
        aria-label={t`Commands`}
        className="max-h-[min(24rem,60dvh)] overflow-y-auto p-2"
      >
        {SECTIONS.map((section) => {
          const inSection = shown.filter((item) => item.section === section);
          if (inSection.length === 0) return null;
          const headingId = `${listId}-${section.replace(' ', '-')}`;
          return (
            <div key={section} role="group" aria-labelledby={headingId} className="mb-2 last:mb-0">
              <div
                id={headingId}
                role="presentation"
                className="px-3 py-1 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400"
              >
                {i18n._(SECTION_NAMES[section])}
              </div>
              {inSection.map((item) => {
                const itemIndex = shown.indexOf(item);
                const selected = itemIndex === activeIndex;
                return (
                  <div
                    key={item.id}
                    id={optionId(itemIndex)}
                    role="option"
                    aria-selected={selected}
                    onClick={() => finish(item)}
                    onMouseMove={() => {
                      if (!selected) setActive(itemIndex);
                    }}
                    className={cn(
                      'flex min-h-10 cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm',
                      selected
                        ? 'bg-blue-700 text-white dark:bg-blue-300 dark:text-slate-950'
                        : 'text-slate-800 dark:text-slate-200',
                    )}
                  >
                    {item.color && <ColorDot color={item.color} />}
                    <span className="truncate">{item.label}</span>
                    {item.detail && (
                      <span
                        className={cn(
                          'ms-auto shrink-0 ps-2 text-xs',
                          selected
                            ? 'text-blue-50 dark:text-slate-800'
                            : 'text-slate-600 dark:text-slate-400',
                        )}
                      >
                        {item.detail}
                      </span>
                    )}
                  </div>
                );
              })}
            </div>
          );
        })}
      </div>
      {todoSearch.searching && (
        <p className="px-5 pb-3 text-sm text-slate-700 dark:text-slate-300">
          <Trans>Searching todos...</Trans>
        </p>
      )}
      {shown.length === 0 && !todoSearch.searching && (
        <p className="px-5 pb-3 text-sm text-slate-700 dark:text-slate-300">
          {t`Nothing matches "${typed}"`}
        </p>
      )}
    </dialog>
  );
}
