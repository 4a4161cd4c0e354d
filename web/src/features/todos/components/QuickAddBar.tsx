import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState } from 'react';
import type { Group } from '@tally/contract';
import { LIMITS } from '@tally/contract/constants';
import { Button } from '#web/components/Button';
import { useCreateTodo } from '../api/create-todo';
import { todoFieldErrors } from '../lib/todo-fields';
import type { Chip, parseQuickAdd } from '../lib/quick-add';
import { suggestionsAt, type Suggestion } from '../lib/quick-add-suggestions';
import { QuickAddChips } from './QuickAddChips';

interface QuickAddBarProps {
  groups: readonly Group[];
  /** The group a new todo goes to when the title names none (the active group filter). */
  defaultGroupId: number | null;
  /** The due date when the title names none: today's in the Today view ('' for none). */
  defaultDueDate: string;
  now: Date;
  /** The user's tag names, suggested after `@`. */
  tags: readonly string[];
  /** Creates a group named in the text ("Create group Garden"); resolves once it exists. */
  onCreateGroup: (name: string) => Promise<unknown>;
}

const NO_DISMISSED: ReadonlySet<string> = new Set();

/**
 * The always-visible one-line quick add at the top of each todo list (docs/product.md, Todos
 * screen), beside the Add Todo form: Enter saves what was typed (date, time, #group, repeat,
 * @tags, priority and start date read out of it, as the form's quick add does) and keeps the
 * field focused for the next; Escape leaves it. As the person types, what it understood shows as
 * removable chips, and a `#` or `@` word offers the groups or tags it may name (the ARIA combobox
 * pattern: arrows move, Enter or Tab takes, Escape closes), or "Create group {name}" for a new
 * one. Quick add's parser (chrono-node) is loaded on the first focus. On a phone the field sits
 * under the screen's floating "+" button, which focuses it.
 */
export function QuickAddBar({
  groups,
  defaultGroupId,
  defaultDueDate,
  now,
  tags,
  onCreateGroup,
}: QuickAddBarProps) {
  const createTodo = useCreateTodo();
  const { t } = useLingui();
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [empty, setEmpty] = useState('');
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(NO_DISMISSED);
  const [parse, setParse] = useState<typeof parseQuickAdd | null>(null);
  // The suggestions list is closed by Escape until the next letter typed.
  const [closedAt, setClosedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [creating, setCreating] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const parser = useRef<Promise<typeof parseQuickAdd> | null>(null);
  const load = () =>
    (parser.current ??= import('../lib/quick-add').then((module) => {
      setParse(() => module.parseQuickAdd);
      return module.parseQuickAdd;
    }));
  const hasDate = defaultDueDate !== '';
  const quick = text.trim() === '' ? null : parse?.(text, { groups, dismissed, now, hasDate });
  const found = suggestionsAt(text, caret, groups, tags);
  const suggestions = found && found.start !== closedAt ? found : null;
  const activeIndex = suggestions ? Math.min(active, suggestions.options.length - 1) : -1;
  const optionId = (index: number) => `${listId}-${index}`;

  const edit = (next: string, at: number) => {
    setText(next);
    setCaret(at);
    setActive(0);
    setClosedAt(null);
    setEmpty('');
    if (createTodo.isError) createTodo.reset();
  };

  const take = async (option: Suggestion) => {
    if (!suggestions) return;
    const next = text.slice(0, suggestions.start) + option.insert + text.slice(suggestions.end);
    const at = suggestions.start + option.insert.length;
    if (option.create !== undefined) {
      setCreating(option.create);
      try {
        await onCreateGroup(option.create);
      } catch {
        // The group was not made (the notice says why): the words stay as typed.
        return;
      } finally {
        setCreating('');
      }
    }
    edit(next, at);
    // The caret goes after the name taken, ready for the next word.
    requestAnimationFrame(() => inputRef.current?.setSelectionRange(at, at));
  };

  const save = async () => {
    const typed = text.trim();
    // Still saving the last one: Enter again waits (the field stays focused, never disabled).
    if (createTodo.isPending) return;
    if (typed === '') {
      setEmpty(t`Type what to do first.`);
      return;
    }
    const read = await load();
    const quick = read(typed, { groups, dismissed, now, hasDate });
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
        ...(quick.startDate ? { startDate: quick.startDate } : {}),
      },
      {
        onSuccess: () => {
          edit('', 0);
          setDismissed(NO_DISMISSED);
        },
      },
    );
  };

  // Whatever the server refused of the todo typed here (its title, its date) is said here.
  const refused = todoFieldErrors(createTodo.error);
  const error = empty || (Object.values(refused)[0] ?? '');
  const unknownGroup = quick?.unknownGroup;
  const example = t({
    comment:
      'Quick add reads its words (tomorrow, 9:00, #group, @tag, p1, every month) in English only: keep them.',
    message: 'Quick add: Pay rent tomorrow 9:00 #Home @bills p1 every month',
  });

  return (
    <form
      aria-label={t`Quick add`}
      id="quick-add"
      // On a phone the field takes the whole row while it holds words, so the chips of what it
      // read lie side by side under it instead of one per line beside the search box.
      className={`relative min-w-0 flex-1 ${text.trim() ? 'max-sm:basis-full' : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label htmlFor="quick-add-title" className="sr-only">
        <Trans>Quick add a todo</Trans>
      </label>
      <input
        ref={inputRef}
        id="quick-add-title"
        type="text"
        value={text}
        maxLength={LIMITS.todoTitleMax}
        autoComplete="off"
        enterKeyHint="done"
        placeholder={example}
        // A phone's field is narrower than the example in every language: the whole of it on
        // hover, and to screen readers (the placeholder).
        title={example}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={suggestions !== null}
        aria-controls={listId}
        aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
        aria-invalid={error !== '' || undefined}
        aria-describedby={error ? 'quick-add-error' : undefined}
        onFocus={() => void load()}
        onChange={(event) =>
          edit(event.target.value, event.target.selectionStart ?? event.target.value.length)
        }
        onSelect={(event) => setCaret(event.currentTarget.selectionStart ?? 0)}
        onKeyDown={(event) => {
          if (suggestions) {
            const count = suggestions.options.length;
            const option = suggestions.options[activeIndex];
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              setActive((activeIndex + (event.key === 'ArrowDown' ? 1 : count - 1)) % count);
              return;
            }
            if ((event.key === 'Enter' || event.key === 'Tab') && option) {
              event.preventDefault();
              void take(option);
              return;
            }
            if (event.key === 'Escape') {
              event.preventDefault();
              setClosedAt(suggestions.start);
              return;
            }
          }
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
      {suggestions && (
        <ul
          id={listId}
          role="listbox"
          aria-label={text[suggestions.start] === '@' ? t`Tags` : t`Groups`}
          className={
            'absolute z-30 mt-1 max-h-72 w-full max-w-sm overflow-y-auto rounded-md border ' +
            'border-slate-300 bg-white py-1 shadow-lg dark:border-slate-600 dark:bg-slate-900'
          }
        >
          {suggestions.options.map((option, index) => (
            <li
              key={option.label}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              // The field keeps the focus: a press on an option must not blur it first.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => void take(option)}
              className={
                'cursor-pointer px-3 py-2 text-base text-slate-900 sm:py-1.5 dark:text-slate-100 ' +
                (index === activeIndex ? 'bg-blue-100 dark:bg-slate-700' : '')
              }
            >
              {option.create !== undefined && creating === option.create
                ? t`Creating group ${creating}...`
                : option.label}
            </li>
          ))}
        </ul>
      )}
      <QuickAddChips
        chips={quick?.chips ?? []}
        title={quick?.title ?? text.trim()}
        onRemove={(chip: Chip) => {
          setDismissed((current) => new Set([...current, ...chip.dismiss]));
          // The chip's button is gone: back to the field, where its words now are.
          inputRef.current?.focus();
        }}
      />
      {quick?.unknownGroup !== undefined && !suggestions && (
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
          {t`No group “${unknownGroup}” yet: it stays in the title.`}
          <Button
            variant="secondary"
            size="sm"
            disabled={creating !== ''}
            onClick={() => {
              const name = quick.unknownGroup ?? '';
              setCreating(name);
              onCreateGroup(name)
                .catch(() => undefined)
                .finally(() => setCreating(''));
            }}
          >
            {creating ? t`Creating group ${creating}...` : t`Create group ${unknownGroup}`}
          </Button>
        </p>
      )}
      {error && (
        <p id="quick-add-error" className="mt-1 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {/* On a phone a floating "+" brings the field into view and focuses it. */}
      <button
        type="button"
        aria-label={t`Quick add a todo`}
        onClick={() => {
          inputRef.current?.scrollIntoView({ block: 'center' });
          inputRef.current?.focus();
        }}
        className={
          'fixed end-4 bottom-20 z-40 flex h-14 w-14 items-center justify-center rounded-full ' +
          'bg-blue-700 text-3xl leading-none text-white shadow-lg sm:hidden dark:bg-blue-300 ' +
          'dark:text-slate-950'
        }
      >
        <span aria-hidden="true">+</span>
      </button>
    </form>
  );
}
