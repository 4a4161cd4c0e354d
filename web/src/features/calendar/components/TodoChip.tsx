import { Trans, useLingui } from '@lingui/react/macro';
import type { Todo } from '@tally/contract';
import type { CSSProperties, KeyboardEvent, PointerEvent } from 'react';
import { cn } from '#web/lib/cn';

/** What a chip does: open the "Move to…" dialog, start a drag, change a duration by keys. */
export interface ChipActions {
  onOpen: (todo: Todo) => void;
  onDragStart: (event: PointerEvent<HTMLElement>, todo: Todo) => void;
  onKeyResize?: (todo: Todo, minutes: number) => void;
}

/**
 * A todo in the calendar: a button that opens "Move to…" (the keyboard's and screen reader's way
 * to move it) and that a pointer drags. Completed ones are faint and struck through.
 */
export function TodoChip({
  todo,
  label,
  actions,
  className,
  style,
  children,
}: {
  todo: Todo;
  /** What a screen reader hears: the title and when. */
  label: string;
  actions: ChipActions;
  className?: string;
  style?: CSSProperties;
  children?: React.ReactNode;
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!actions.onKeyResize || !event.shiftKey) return;
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    actions.onKeyResize(todo, event.key === 'ArrowDown' ? 15 : -15);
  };
  return (
    <button
      type="button"
      data-todo-id={todo.id}
      aria-label={label}
      aria-haspopup="dialog"
      onPointerDown={(event) => actions.onDragStart(event, todo)}
      onClick={() => actions.onOpen(todo)}
      onKeyDown={onKeyDown}
      style={style}
      className={cn(
        'block w-full touch-none truncate rounded px-1.5 py-0.5 text-start text-xs select-none',
        'bg-blue-100 text-blue-950 hover:bg-blue-200 dark:bg-blue-950 dark:text-blue-50 dark:hover:bg-blue-900',
        todo.completed && 'line-through opacity-60',
        className,
      )}
    >
      {children ?? todo.title}
    </button>
  );
}

/** A repeat's occurrence to come: the same todo again, faint, not a todo of its own to move. */
export function OccurrenceChip({
  todo,
  className,
  style,
}: {
  todo: Todo;
  className?: string;
  style?: CSSProperties;
}) {
  const { t } = useLingui();
  const { title } = todo;
  return (
    <div
      title={t`Repeats: "${title}"`}
      style={style}
      className={cn(
        'truncate rounded border border-dashed border-slate-400 px-1.5 py-0.5 text-xs text-slate-700 dark:border-slate-500 dark:text-slate-300',
        className,
      )}
    >
      <span className="sr-only">
        <Trans>Repeats:</Trans>{' '}
      </span>
      {todo.title}
    </div>
  );
}
