import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Todo } from '@tally/contract';
import { TAG_NAME_PATTERN, type Priority } from '@tally/contract/constants';
import { queryKeys } from '#web/lib/query-keys';
import { PRIORITY_NAMES } from '../lib/priority-names';
import { subtreeOf } from '../lib/subtasks';
import { BAR_BUTTON, BAR_CONTROL } from './bulk-bar-styles';

/** One of the task model's bulk changes: the action and the one field it takes. */
export type DetailChange =
  | { action: 'tag' | 'untag'; tag: string }
  | { action: 'priority'; priority: Priority }
  | { action: 'parent'; parentId: number | null };

interface BulkDetailsProps {
  picked: readonly Todo[];
  disabled: boolean;
  /** The server's refusal of the last tag change (e.g. a todo with 20 tags), beside the field. */
  tagError: string | null;
  onChange: (change: DetailChange) => void;
}

const TAG_NAME = new RegExp(TAG_NAME_PATTERN, 'u');

const control = BAR_CONTROL;
const button = BAR_BUTTON;

/**
 * The bulk bar's controls for tags, priority and parent (docs/product.md, Tags, priority,
 * subtasks): a tag typed once, then Add tag or Remove tag; a priority; a parent among the open
 * todos that none of the picked ones contains (the top level too).
 */
export function BulkDetails({ picked, disabled, tagError, onChange }: BulkDetailsProps) {
  const queryClient = useQueryClient();
  const errorId = useId();
  const [tag, setTag] = useState('');
  const { t, i18n } = useLingui();
  const name = tag.trim().replace(/^@/, '');
  const invalid = name !== '' && !TAG_NAME.test(name);
  const error = invalid ? t`A tag is 1-30 characters without spaces or commas.` : tagError;

  const all = queryClient.getQueryData<Todo[]>(queryKeys.todos) ?? [];
  const excluded = new Set(picked.flatMap((todo) => [todo.id, ...subtreeOf(all, todo.id)]));
  const parents = all.filter((todo) => !excluded.has(todo.id) && !todo.completed);
  const tagging = (action: 'tag' | 'untag') => {
    if (name === '' || invalid) return;
    onChange({ action, tag: name });
  };

  return (
    <>
      <span className="inline-flex shrink-0 items-center gap-1">
        <input
          type="text"
          aria-label={t`Tag`}
          placeholder={t`Tag`}
          value={tag}
          disabled={disabled}
          onChange={(event) => setTag(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') tagging('tag');
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={`${control} w-24 sm:w-16`}
        />
        {/* Beside the Tag field, "Add" and "Remove" say enough on screen; their names say it all. */}
        <button
          type="button"
          aria-label={t`Add tag`}
          className={button}
          disabled={disabled || name === '' || invalid}
          onClick={() => tagging('tag')}
        >
          <Trans>Add</Trans>
        </button>
        <button
          type="button"
          aria-label={t`Remove tag`}
          className={button}
          disabled={disabled || name === '' || invalid}
          onClick={() => tagging('untag')}
        >
          <Trans>Remove</Trans>
        </button>
      </span>
      <select
        aria-label={t`Set priority`}
        value=""
        disabled={disabled}
        onChange={(event) =>
          onChange({
            action: 'priority',
            // The options are the four priorities.
            priority: Number(event.target.value) as Priority,
          })
        }
        className={`${control} max-w-28 sm:max-w-[5.5rem]`}
      >
        <option value="" disabled>
          {t`Priority…`}
        </option>
        {([3, 2, 1] as const).map((priority) => (
          <option key={priority} value={String(priority)}>
            {i18n._(PRIORITY_NAMES[priority])}
          </option>
        ))}
        <option value="0">{t`None`}</option>
      </select>
      <select
        aria-label={t`Move under a parent`}
        value=""
        disabled={disabled}
        onChange={(event) =>
          onChange({
            action: 'parent',
            parentId: event.target.value === 'top' ? null : Number(event.target.value),
          })
        }
        className={`${control} max-w-32 sm:max-w-[5.5rem]`}
      >
        <option value="" disabled>
          {t`Subtask of…`}
        </option>
        <option value="top">{t`Top level`}</option>
        {parents.map((todo) => (
          <option key={todo.id} value={String(todo.id)}>
            {todo.title}
          </option>
        ))}
      </select>
      {error && (
        // Under the bar (the bar is its containing block), over the list's first row.
        <p
          id={errorId}
          role="alert"
          className="absolute top-full end-4 start-4 mt-1 rounded-md border border-red-300 bg-white px-3 py-2 text-sm text-red-700 shadow-md sm:end-2 sm:start-2 dark:border-red-700 dark:bg-slate-900 dark:text-red-300"
        >
          {error}
        </p>
      )}
    </>
  );
}
