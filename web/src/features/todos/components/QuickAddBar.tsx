import { useRef, useState } from 'react';
import type { Group } from '@tally/contract';
import { LIMITS } from '@tally/contract/constants';
import { useCreateTodo } from '../api/create-todo';
import { todoFieldErrors } from '../lib/todo-fields';
import type { parseQuickAdd } from '../lib/quick-add';

interface QuickAddBarProps {
  groups: readonly Group[];
  /** The group a new todo goes to when the title names none (the active group filter). */
  defaultGroupId: number | null;
  /** The due date when the title names none: today's in the Today view ('' for none). */
  defaultDueDate: string;
  now: Date;
}

const NO_DISMISSED: ReadonlySet<string> = new Set();

/**
 * The always-visible one-line quick add at the top of each todo list (docs/product.md, Todos
 * screen), beside the Add Todo form: Enter saves what was typed (date, time, #group, repeat,
 * @tags and priority read out of it, as the form's quick add does) and keeps the field focused
 * for the next; Escape leaves it. Quick add's parser (chrono-node) is loaded on the first focus.
 * On a phone the field sits under the screen's floating "+" button, which focuses it.
 */
export function QuickAddBar({ groups, defaultGroupId, defaultDueDate, now }: QuickAddBarProps) {
  const createTodo = useCreateTodo();
  const [text, setText] = useState('');
  const [empty, setEmpty] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const parser = useRef<Promise<typeof parseQuickAdd> | null>(null);
  const load = () =>
    (parser.current ??= import('../lib/quick-add').then((module) => module.parseQuickAdd));

  const save = async () => {
    const typed = text.trim();
    // Still saving the last one: Enter again waits (the field stays focused, never disabled).
    if (createTodo.isPending) return;
    if (typed === '') {
      setEmpty('Type what to do first.');
      return;
    }
    const parse = await load();
    const quick = parse(typed, {
      groups,
      dismissed: NO_DISMISSED,
      now,
      hasDate: defaultDueDate !== '',
    });
    const dueDate = quick.dueDate ?? (defaultDueDate || undefined);
    createTodo.mutate(
      {
        title: quick.title,
        description: null,
        groupId: quick.groupId ?? defaultGroupId,
        ...(dueDate ? { dueDate } : {}),
        ...(dueDate && quick.dueTime ? { dueTime: quick.dueTime } : {}),
        ...(dueDate && quick.repeat ? { repeat: quick.repeat } : {}),
        ...(quick.tags ? { tags: quick.tags } : {}),
        ...(quick.priority ? { priority: quick.priority } : {}),
      },
      { onSuccess: () => setText('') },
    );
  };

  // Whatever the server refused of the todo typed here (its title, its date) is said here.
  const refused = todoFieldErrors(createTodo.error);
  const error = empty || (Object.values(refused)[0] ?? '');

  return (
    <form
      aria-label="Quick add"
      id="quick-add"
      className="min-w-0 flex-1"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label htmlFor="quick-add-title" className="sr-only">
        Quick add a todo
      </label>
      <input
        ref={inputRef}
        id="quick-add-title"
        type="text"
        value={text}
        maxLength={LIMITS.todoTitleMax}
        autoComplete="off"
        enterKeyHint="done"
        placeholder="Quick add: Pay rent tomorrow 9:00 #Home @bills p1 every month"
        aria-invalid={error !== '' || undefined}
        aria-describedby={error ? 'quick-add-error' : undefined}
        onFocus={() => void load()}
        onChange={(event) => {
          setText(event.target.value);
          setEmpty('');
          if (createTodo.isError) createTodo.reset();
        }}
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          event.preventDefault();
          inputRef.current?.blur();
        }}
        className={
          'block min-h-11 w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base ' +
          'text-slate-900 placeholder:text-slate-600 sm:min-h-10 dark:border-slate-500 ' +
          'dark:bg-slate-950 dark:text-slate-100 dark:placeholder:text-slate-400'
        }
      />
      {error && (
        <p id="quick-add-error" className="mt-1 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {/* On a phone a floating "+" brings the field into view and focuses it. */}
      <button
        type="button"
        aria-label="Quick add a todo"
        onClick={() => {
          inputRef.current?.scrollIntoView({ block: 'center' });
          inputRef.current?.focus();
        }}
        className={
          'fixed right-4 bottom-20 z-40 flex h-14 w-14 items-center justify-center rounded-full ' +
          'bg-blue-700 text-3xl leading-none text-white shadow-lg sm:hidden dark:bg-blue-300 ' +
          'dark:text-slate-950'
        }
      >
        <span aria-hidden="true">+</span>
      </button>
    </form>
  );
}
