import { useLingui } from '@lingui/react/macro';
import { defaultRangeExtractor, useWindowVirtualizer, type Range } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import type { Group, Todo } from '@tally/contract';
import type { MoveInput } from '../api/move-todo';
import { useCollapsedParents } from '../hooks/use-collapsed-parents';
import { nestTodos, progressOf, subtreeOf } from '../lib/subtasks';
import { TodoItem } from './TodoItem';

interface TodoListProps {
  /** What the tab shows, newest first. */
  todos: readonly Todo[];
  groups: readonly Group[];
  now: Date;
  onDelete: (todo: Todo) => void;
  selecting: boolean;
  selected: ReadonlySet<number>;
  /** Picks or unpicks a row (`range`: from the last picked one); turns selection mode on. */
  onSelect: (todo: Todo, range: boolean) => void;
  /**
   * In the manual sort: puts a todo just before or after a sibling (Alt+↑/↓ on a row, or a
   * drag onto another row; dropped on a row of another parent, it joins that parent: `parentId`).
   * `position` is where it lands meanwhile.
   */
  onMove?: (move: MoveInput) => void;
  /** The list's name for screen readers: "Todos", or "Completed todos" for the Completed part. */
  label?: string;
}

/** Where a todo lands just before or after `target` among `siblings` (in their order). */
function landing(siblings: readonly Todo[], target: Todo, before: boolean): number {
  const index = siblings.findIndex((todo) => todo.id === target.id);
  const neighbour = siblings[before ? index - 1 : index + 1];
  if (!neighbour) return target.position + (before ? -1024 : 1024);
  return (target.position + neighbour.position) / 2;
}

/** A row's height before it is measured: a title and a badge line. */
const ESTIMATED_ROW_PX = 64;
/** Rows rendered beyond each edge of the screen, so a fast scroll or j/k meets no gap. */
const OVERSCAN = 8;

/** Keys typed into a field are text, never row shortcuts (checkboxes and buttons are not fields). */
function isTextField(target: EventTarget): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return (
    target instanceof HTMLInputElement &&
    !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type)
  );
}

/**
 * The All view's list, virtualised against the window's scroll: only the rows on screen (and a
 * few beyond) are in the document, each measured once rendered (rows differ in height), placed
 * in a list as tall as all of them. Screen readers hear each row's place (aria-posinset of
 * aria-setsize). Row keys, handled here so they never meet the app's global shortcuts:
 * j/k or ↓/↑ (Home/End) move a visible focus through the rows (roving tabindex: the list is one
 * Tab stop; → and ← go through the row's controls), Space completes or reopens, Enter opens the detail view, e edits, Delete or # deletes (Confirm Delete), x picks
 * the row for a bulk action. The focused row always stays rendered, wherever the list scrolls.
 */
export const TodoList = memo(function TodoList({
  todos: given,
  groups,
  now,
  onDelete,
  selecting,
  selected,
  onSelect,
  onMove,
  label: givenLabel,
}: TodoListProps) {
  const { t } = useLingui();
  const label = givenLabel ?? t`Todos`;
  // Each subtask right under its parent, indented; a parent shows done/total of its subtasks and
  // may hide them (collapsed).
  const [collapsed, toggleCollapsed] = useCollapsedParents();
  const { todos, depths } = useMemo(() => {
    const nested = nestTodos(given);
    if (collapsed.size === 0) return nested;
    const byId = new Map(given.map((todo) => [todo.id, todo]));
    const hidden = (todo: Todo): boolean => {
      for (let id = todo.parentId; id !== null; id = byId.get(id)?.parentId ?? null) {
        if (collapsed.has(id)) return true;
      }
      return false;
    };
    return { ...nested, todos: nested.todos.filter((todo) => !hidden(todo)) };
  }, [given, collapsed]);
  const progress = useMemo(() => progressOf(given), [given]);
  const listRef = useRef<HTMLUListElement>(null);
  const [activeId, setActiveId] = useState<number | null>(null);
  // The last place of the active row: when it leaves the tab (completed while completed ones
  // are hidden, deleted), the focus stays at that place in the list.
  const lastIndex = useRef(0);
  const focusPending = useRef(false);
  /** Whether the focus is in the list (a removed focused row leaves it on the body). */
  const focusInside = useRef(false);
  const [scrollMargin, setScrollMargin] = useState(0);

  const found = activeId === null ? -1 : todos.findIndex((todo) => todo.id === activeId);
  const activeIndex =
    todos.length === 0 ? -1 : found >= 0 ? found : Math.min(lastIndex.current, todos.length - 1);
  lastIndex.current = Math.max(activeIndex, 0);

  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (activeIndex < 0 || activeIndex >= range.count || indexes.includes(activeIndex)) {
        return indexes;
      }
      return [...indexes, activeIndex].sort((a, b) => a - b);
    },
    [activeIndex],
  );

  const virtualizer = useWindowVirtualizer({
    count: todos.length,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: OVERSCAN,
    scrollMargin,
    getItemKey: (index) => todos[index]?.id ?? index,
    rangeExtractor,
    initialRect: { width: window.innerWidth, height: window.innerHeight },
  });

  // Where the list starts on the page moves when something above it grows or shrinks (the
  // new-todo form opens, a message appears): the window offsets are measured against it.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const measure = () => {
      const top = list.getBoundingClientRect().top + window.scrollY;
      setScrollMargin((current) => (Math.abs(current - top) < 1 ? current : top));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    listRef.current?.querySelector<HTMLElement>(`li[data-index="${activeIndex}"]`)?.focus();
  }, [activeIndex]);

  // The focused row left the tab (completed while completed ones are hidden): the focus goes to
  // the row now in its place rather than to the page's start.
  const rowGone = activeId !== null && found < 0;
  useLayoutEffect(() => {
    if (!rowGone || document.activeElement !== document.body) return;
    if (!focusInside.current) return;
    listRef.current?.querySelector<HTMLElement>(`li[data-index="${activeIndex}"]`)?.focus();
  }, [rowGone, activeIndex]);

  const moveTo = (index: number) => {
    const target = todos[Math.max(0, Math.min(index, todos.length - 1))];
    if (!target) return;
    if (target.id === activeId) {
      listRef.current?.querySelector<HTMLElement>(`li[data-index="${activeIndex}"]`)?.focus();
      return;
    }
    focusPending.current = true;
    setActiveId(target.id);
  };

  /**
   * Moves `todo` just before or after `target`, under `target`'s parent (never into its own
   * subtree); the focus stays on it.
   */
  const moveBeside = (todo: Todo, target: Todo, before: boolean) => {
    if (!onMove || todo.id === target.id) return;
    const parentId = target.parentId;
    if (parentId !== null && [todo.id, ...subtreeOf(todos, todo.id)].includes(parentId)) return;
    const siblings = todos.filter((t) => t.parentId === parentId && t.id !== todo.id);
    const position = landing(siblings, target, before);
    const parent = parentId === todo.parentId ? {} : { parentId };
    onMove(
      before
        ? { id: todo.id, beforeId: target.id, position, ...parent }
        : { id: todo.id, afterId: target.id, position, ...parent },
    );
    focusPending.current = true;
    setActiveId(todo.id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (
      onMove &&
      event.altKey &&
      (event.key === 'ArrowUp' || event.key === 'ArrowDown') &&
      !isTextField(event.target)
    ) {
      // Alt+↑/↓: one place up or down among its siblings (docs/product.md, Manual order).
      const row = (event.target as HTMLElement).closest<HTMLLIElement>('li[data-index]');
      const todo = row ? todos[Number(row.dataset.index)] : undefined;
      if (!todo) return;
      const siblings = todos.filter((t) => t.parentId === todo.parentId);
      const at = siblings.findIndex((t) => t.id === todo.id);
      const up = event.key === 'ArrowUp';
      const target = siblings[up ? at - 1 : at + 1];
      if (target) moveBeside(todo, target, up);
      event.preventDefault();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || isTextField(event.target)) return;
    const row = (event.target as HTMLElement).closest<HTMLLIElement>('li[data-index]');
    if (!row) return;
    const index = Number(row.dataset.index);
    const todo = todos[index];
    if (!todo) return;
    const click = (action: string) =>
      row.querySelector<HTMLElement>(`[data-action="${action}"]`)?.click();
    // The list is one Tab stop: ← and → go through the row's own controls, from the row itself
    // (those shown: a phone has the row menu instead of the text buttons).
    const sideways = (step: 1 | -1) => {
      const stops = [
        row,
        ...Array.from(
          row.querySelectorAll<HTMLElement>('button:not(:disabled), input:not(:disabled)'),
        ).filter((control) => getComputedStyle(control).display !== 'none'),
      ];
      const at = stops.indexOf(event.target as HTMLElement);
      stops[Math.min(Math.max(at + step, 0), stops.length - 1)]?.focus();
    };
    switch (event.key) {
      case 'ArrowRight':
        sideways(1);
        break;
      case 'ArrowLeft':
        sideways(-1);
        break;
      case 'j':
      case 'ArrowDown':
        moveTo(index + 1);
        break;
      case 'k':
      case 'ArrowUp':
        moveTo(index - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(todos.length - 1);
        break;
      case ' ':
        // On a checkbox or a button, Space is theirs.
        if (event.target !== row) return;
        click('toggle');
        break;
      case 'Enter':
        // On a checkbox or a button, Enter is theirs; on the row it opens the detail view.
        if (event.target !== row) return;
        click('open');
        break;
      case 'e':
        click('edit');
        break;
      case 'Delete':
      case '#':
        click('delete');
        break;
      case 'x':
        onSelect(todo, event.shiftKey);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const items = virtualizer.getVirtualItems();
  const lastIndexOfList = todos.length - 1;
  return (
    <div className="rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900">
      <ul
        ref={listRef}
        aria-label={label}
        onKeyDown={onKeyDown}
        onFocus={() => {
          focusInside.current = true;
        }}
        onBlur={(event) => {
          // A row removed with the focus blurs without a new target: that is not leaving.
          if (event.relatedTarget !== null) focusInside.current = false;
        }}
        className="relative"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {items.map((item) => {
          const todo = todos[item.index];
          if (!todo) return null;
          return (
            <li
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              aria-setsize={todos.length}
              aria-posinset={item.index + 1}
              tabIndex={item.index === activeIndex ? 0 : -1}
              onFocus={() => {
                if (todo.id !== activeId) setActiveId(todo.id);
              }}
              // In the manual sort a row is dragged onto a sibling: above it when coming from
              // below, under it when coming from above.
              draggable={onMove !== undefined}
              onDragStart={(event) => {
                event.dataTransfer.setData('text/x-tally-todo', String(todo.id));
                event.dataTransfer.effectAllowed = 'move';
              }}
              onDragOver={(event) => {
                if (onMove && event.dataTransfer.types.includes('text/x-tally-todo')) {
                  event.preventDefault();
                }
              }}
              onDrop={(event) => {
                const id = Number(event.dataTransfer.getData('text/x-tally-todo'));
                const dragged = todos.find((t) => t.id === id);
                if (!dragged) return;
                event.preventDefault();
                const from = todos.indexOf(dragged);
                moveBeside(dragged, todo, from > item.index);
              }}
              // An outline, not a ring: it is painted over the row's own background, so a
              // selected (tinted) row still shows where the focus is. outline-solid is needed:
              // in Tailwind 4 outline-2 keeps the style outline-none set, which draws nothing.
              // A row whose menu is open is above the rows after it, which its menu covers.
              className={
                'absolute top-0 start-0 w-full scroll-my-24 outline-none focus-visible:z-10 ' +
                'has-[[role=menu]]:z-20 ' +
                'focus-visible:outline-2 focus-visible:outline-solid focus-visible:-outline-offset-2 ' +
                'focus-visible:outline-blue-700 dark:focus-visible:outline-blue-300 ' +
                (item.index < lastIndexOfList
                  ? 'border-b border-slate-200 dark:border-slate-700'
                  : '')
              }
              style={{ transform: `translateY(${item.start - scrollMargin}px)` }}
            >
              <TodoItem
                todo={todo}
                groups={groups}
                onDelete={onDelete}
                now={now}
                selecting={selecting}
                selected={selected.has(todo.id)}
                onSelect={onSelect}
                depth={depths.get(todo.id) ?? 0}
                progress={progress.get(todo.id)}
                collapsed={collapsed.has(todo.id)}
                onToggleCollapsed={toggleCollapsed}
                tabbable={false}
              />
            </li>
          );
        })}
      </ul>
    </div>
  );
});
