import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, memo, Suspense, useEffect, useRef, useState } from 'react';
import type { Group, Todo } from '@tally/contract';
import { Button } from '#web/components/Button';
import { readableTextColor } from '#web/lib/color';
import { useSkipTodo } from '../api/skip-todo';
import { useToggleTodo } from '../api/update-todo';
import { openTodo } from '../hooks/use-open-todo';
import { PRIORITY_NAMES } from '../lib/priority-names';
import { firstLine, type Progress } from '../lib/subtasks';
import { AddSubtask } from './AddSubtask';
import { RowMenu, type RowMenuItem } from './RowMenu';
import { TodoDue } from './TodoDue';

/**
 * The inline edit form, loaded on the first Edit (precached by the service worker, so offline
 * too): it keeps the /todos screen within its bundle budget (scripts/check-bundle-size.mjs).
 */
const TodoEditForm = lazy(() =>
  import('./TodoEditForm').then((module) => ({ default: module.TodoEditForm })),
);

interface TodoItemProps {
  todo: Todo;
  groups: readonly Group[];
  onDelete: (todo: Todo) => void;
  /** The clock the due labels follow. */
  now: Date;
  /** Selection mode (the list's Select switch): a checkbox to pick the row for a bulk action. */
  selecting?: boolean;
  selected?: boolean;
  /** `range`: shift-click, everything from the last picked row to this one. */
  onSelect?: (todo: Todo, range: boolean) => void;
  /** How deep a subtask it is in the list (0: top level), for its indent. */
  depth?: number;
  /** done/total of its subtasks, when it has any. */
  progress?: Progress | undefined;
  /** Whether the list hides its subtasks; with onToggleCollapsed, a parent shows the switch. */
  collapsed?: boolean;
  onToggleCollapsed?: (id: number) => void;
  /**
   * Whether its controls are Tab stops. The All list is one Tab stop (roving tabindex): none
   * are; ↑ and ↓ move between rows, → and ← through a row's controls.
   */
  tabbable?: boolean;
}

const PRIORITY_STYLES = [
  '',
  'border-sky-300 text-sky-900 dark:border-sky-700 dark:text-sky-100',
  'border-amber-400 text-amber-900 dark:border-amber-600 dark:text-amber-100',
  'border-red-400 text-red-900 dark:border-red-500 dark:text-red-100',
] as const;

/**
 * A row's text buttons, where a mouse points: on a phone the row menu stands for them, so the
 * title is not squeezed into a narrow column beside them.
 */
const ROW_BUTTON = 'hidden min-h-9 sm:inline-flex';

/** Indent per level of subtask, in rem (a phone keeps room for the title at level 4). */
const INDENT_REM = 1.25;

/**
 * One row's content (the list gives the `li`): completion checkbox, title (opens the detail
 * view), description, due date and repeat mark, group badge, Skip (repeating todos), Edit and
 * Delete (from 640 px), and the row menu (components/RowMenu.tsx: Skip, Edit, Add subtask,
 * Delete; Add subtask opens a field under the row); in selection mode the checkbox picks the row
 * instead (one control: a completion box beside it was too easily hit while selecting).
 * Memoised: a row renders again only when its own todo (the cache keeps the objects of unchanged
 * todos), its selection or the minute changes. The list's row keys (j/k, Space, e, Delete, x)
 * click the controls marked with data-action.
 */
export const TodoItem = memo(function TodoItem({
  todo,
  groups,
  onDelete,
  now,
  selecting = false,
  selected = false,
  onSelect,
  depth = 0,
  progress,
  collapsed = false,
  onToggleCollapsed,
  tabbable = true,
}: TodoItemProps) {
  const tabIndex = tabbable ? undefined : -1;
  const { t, i18n } = useLingui();
  const { title } = todo;
  const subtasksDone = progress?.done ?? 0;
  const subtasks = progress?.total ?? 0;
  const toggleTodo = useToggleTodo();
  const skipTodo = useSkipTodo();
  const [editing, setEditing] = useState(false);
  const [addingSubtask, setAddingSubtask] = useState(false);
  const returnFocusRef = useRef(false);
  const editButtonRef = useRef<HTMLButtonElement>(null);
  const rowRef = useRef<HTMLDivElement>(null);
  // The flip is shown in the click's own render: the cache's optimistic update lands a few
  // microtasks later, and a controlled checkbox would spring back in between.
  const [pendingCompleted, setPendingCompleted] = useState<boolean | null>(null);
  const completed = pendingCompleted ?? todo.completed;
  const group = todo.groupId === null ? undefined : groups.find((g) => g.id === todo.groupId);

  useEffect(() => {
    if (!editing && returnFocusRef.current) {
      returnFocusRef.current = false;
      editButtonRef.current?.focus();
    }
  }, [editing]);

  if (editing) {
    return (
      <div className="flex gap-3 px-4 py-4">
        <Suspense
          fallback={<p className="text-sm text-slate-700 dark:text-slate-300">{t`Loading...`}</p>}
        >
          <TodoEditForm
            todo={todo}
            groups={groups}
            onDone={() => {
              returnFocusRef.current = true;
              setEditing(false);
            }}
          />
        </Suspense>
      </div>
    );
  }

  const canSkip = todo.repeat !== null && !completed;
  const menuItems: RowMenuItem[] = [
    ...(canSkip ? [{ label: t`Skip`, onSelect: () => skipTodo.mutate(todo.id) }] : []),
    { label: t`Edit`, onSelect: () => setEditing(true) },
    ...(completed ? [] : [{ label: t`Add subtask`, onSelect: () => setAddingSubtask(true) }]),
    { label: t`Delete`, onSelect: () => onDelete(todo), danger: true },
  ];
  const indent = depth > 0 ? { paddingLeft: `${1 + depth * INDENT_REM}rem` } : undefined;

  const row = (
    <div
      ref={rowRef}
      className={
        // Dense (the density target: 8 whole rows on a phone, 12 at 1280×800). On a phone a grid:
        // the title line between the checkbox and the row menu, the badges on a line of their
        // own under the title and the menu, so they wrap only when there are many; a title-only
        // row is 44 px. From 640 px one flex line: a title-only row is 40 px (36 px of content
        // or buttons and 2 px above and below), the badges beside the title.
        'grid min-h-11 grid-cols-[auto_minmax(0,1fr)_auto] items-start gap-x-2 px-3 py-0.5 ' +
        'sm:flex sm:min-h-0 sm:gap-3 sm:px-4 ' +
        (selecting && selected ? 'bg-blue-50 dark:bg-blue-950/60' : '')
      }
      style={indent}
      data-depth={depth}
    >
      {selecting && (
        // The label around it makes a 44 px target for a finger (-m-3 keeps the row's layout).
        <label className="-mx-3 -mt-1.5 -mb-3 flex shrink-0 cursor-pointer p-3">
          <input
            type="checkbox"
            data-action="select"
            aria-label={t`Select ${title}`}
            tabIndex={tabIndex}
            checked={selected}
            // React's checkbox change comes from the click, which says whether shift was held.
            onChange={(event) =>
              onSelect?.(
                todo,
                event.nativeEvent instanceof MouseEvent && event.nativeEvent.shiftKey,
              )
            }
            className="mt-0.5 h-5 w-5 cursor-pointer accent-slate-700 dark:accent-slate-300"
          />
        </label>
      )}
      {!selecting && (
        // The label around it makes a 44 px target for a finger (-m-3 keeps the row's layout).
        // Its name is the title (hidden text: the visible title is the button that opens it).
        <label className="-mx-3 -mt-1.5 -mb-3 flex shrink-0 cursor-pointer p-3">
          <input
            data-action="toggle"
            type="checkbox"
            tabIndex={tabIndex}
            checked={completed}
            onChange={() => {
              setPendingCompleted(!completed);
              toggleTodo.mutate(
                { ...todo, completed },
                { onSettled: () => setPendingCompleted(null) },
              );
            }}
            className="mt-0.5 h-5 w-5 shrink-0 cursor-pointer accent-blue-700 dark:accent-blue-300"
          />
          <span className="sr-only">{todo.title}</span>
        </label>
      )}
      {/* From 640 px the badges follow the title on its line while there is room (a row stays
          40 px); the description, when there is one, takes a line of its own. On a phone this
          box and the title line's give their parts to the row's grid (contents). */}
      <div className="contents sm:flex sm:min-w-0 sm:flex-1 sm:flex-wrap sm:items-center sm:gap-x-3 sm:gap-y-1 sm:py-1.5">
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 py-1.5 sm:contents">
          <button
            type="button"
            data-action="open"
            tabIndex={tabIndex}
            onClick={() => openTodo(todo)}
            className={
              'max-w-full cursor-pointer text-start leading-6 font-medium break-words ' +
              (completed
                ? 'text-slate-600 line-through dark:text-slate-400'
                : 'text-slate-900 dark:text-slate-100')
            }
          >
            {todo.title}
          </button>
          {progress && (
            <span
              className="text-xs font-medium text-slate-700 dark:text-slate-300"
              aria-label={plural(subtasks, {
                one: `${subtasksDone} of # subtask done`,
                other: `${subtasksDone} of # subtasks done`,
              })}
            >
              <Trans>
                {subtasksDone}/{subtasks} done
              </Trans>
            </span>
          )}
          {progress && onToggleCollapsed && (
            <button
              type="button"
              aria-expanded={!collapsed}
              aria-label={t`Subtasks of ${title}`}
              tabIndex={tabIndex}
              onClick={() => onToggleCollapsed(todo.id)}
              className={
                '-my-2 inline-flex min-h-11 items-center rounded px-1.5 text-xs font-medium ' +
                'text-slate-700 hover:bg-slate-100 sm:min-h-7 dark:text-slate-300 ' +
                'dark:hover:bg-slate-800'
              }
            >
              {collapsed ? t`▸ Show` : t`▾ Hide`}
            </button>
          )}
        </div>
        {todo.description && (
          // The first line only, as plain text: the detail view renders the Markdown.
          <p className="order-last col-span-2 col-start-2 -mt-1.5 basis-full truncate pb-1.5 text-sm text-slate-700 sm:m-0 sm:p-0 dark:text-slate-300">
            {firstLine(todo.description)}
          </p>
        )}
        {(group ||
          (selecting && completed) ||
          todo.dueDate ||
          todo.priority > 0 ||
          todo.tags.length > 0) && (
          <div className="col-span-2 col-start-2 -mt-1.5 flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 pb-1.5 sm:m-0 sm:gap-x-3 sm:gap-y-1.5 sm:p-0">
            {selecting && completed && (
              // Without its completion box, a selected row still says it is done.
              <span className="text-xs font-semibold text-green-800 dark:text-green-300">
                <Trans>Completed</Trans>
              </span>
            )}
            {todo.priority > 0 && (
              <span
                className={
                  'rounded border px-1.5 text-xs font-semibold ' + PRIORITY_STYLES[todo.priority]
                }
                title={t`Priority`}
              >
                {i18n._(PRIORITY_NAMES[todo.priority] ?? PRIORITY_NAMES[0])}
              </span>
            )}
            <TodoDue todo={{ ...todo, completed }} now={now} />
            {todo.tags.map((tag) => (
              <span
                key={tag}
                className="max-w-full truncate rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800 dark:bg-slate-800 dark:text-slate-200"
              >
                @{tag}
              </span>
            ))}
            {group && (
              <span
                className="inline-block max-w-full truncate rounded-full px-2.5 py-0.5 align-top text-xs font-semibold"
                style={{ backgroundColor: group.color, color: readableTextColor(group.color) }}
              >
                {group.name}
              </span>
            )}
          </div>
        )}
      </div>
      <div className="col-start-3 row-start-1 flex shrink-0 justify-end gap-1">
        {canSkip && (
          <Button
            variant="ghost"
            size="compact"
            className={ROW_BUTTON}
            aria-label={t`Skip ${title}`}
            tabIndex={tabIndex}
            title={t`Skip this occurrence`}
            disabled={skipTodo.isPending}
            onClick={() => skipTodo.mutate(todo.id)}
          >
            <Trans>Skip</Trans>
          </Button>
        )}
        <Button
          ref={editButtonRef}
          data-action="edit"
          variant="ghost"
          size="compact"
          className={ROW_BUTTON}
          aria-label={t`Edit ${title}`}
          tabIndex={tabIndex}
          onClick={() => setEditing(true)}
        >
          <Trans>Edit</Trans>
        </Button>
        <Button
          data-action="delete"
          variant="ghostDanger"
          size="compact"
          className={ROW_BUTTON}
          aria-label={t`Delete ${title}`}
          tabIndex={tabIndex}
          onClick={() => onDelete(todo)}
        >
          <Trans>Delete</Trans>
        </Button>
        <RowMenu title={todo.title} items={menuItems} tabIndex={tabIndex} />
      </div>
    </div>
  );
  return (
    <>
      {row}
      {addingSubtask && (
        <div className="px-3 pb-3 sm:px-4" style={indent}>
          <AddSubtask
            parent={todo}
            onClose={() => {
              setAddingSubtask(false);
              rowRef.current?.querySelector<HTMLElement>('[aria-haspopup="menu"]')?.focus();
            }}
          />
        </div>
      )}
    </>
  );
});
