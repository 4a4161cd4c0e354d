import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import type { Todo } from '@tally/contract';
import { LIMITS } from '@tally/contract/constants';
import { Button } from '#web/components/Button';
import { useCreateTodo } from '../api/create-todo';
import { todoFieldErrors } from '../lib/todo-fields';

interface AddSubtaskProps {
  parent: Todo;
  /**
   * Under a row of the list (the row menu's Add subtask): the field takes the focus, and Escape
   * calls this to put it away.
   */
  onClose?: () => void;
}

/**
 * "Add subtask" in a todo's detail view and under a row: a title, and Enter or the button makes a
 * subtask of the todo in its group; the field stays for the next one. A refused title is said
 * under the field (any other refusal, such as one level too deep, in a notice).
 */
export function AddSubtask({ parent, onClose }: AddSubtaskProps) {
  const createTodo = useCreateTodo();
  const [title, setTitle] = useState('');
  const fieldId = useId();
  const { t } = useLingui();
  const error = Object.values(todoFieldErrors(createTodo.error))[0] ?? '';
  const add = () => {
    if (title.trim() === '' || createTodo.isPending) return;
    createTodo.mutate(
      { title: title.trim(), description: null, groupId: parent.groupId, parentId: parent.id },
      { onSuccess: () => setTitle('') },
    );
  };
  return (
    <section aria-label={t`Subtasks`} className="space-y-1">
      <label htmlFor={fieldId} className="text-sm font-medium">
        <Trans>New subtask</Trans>
      </label>
      <div className="flex gap-2">
        <input
          id={fieldId}
          type="text"
          value={title}
          maxLength={LIMITS.todoTitleMax}
          autoComplete="off"
          autoFocus={onClose !== undefined}
          aria-invalid={error !== '' || undefined}
          aria-describedby={error ? `${fieldId}-error` : undefined}
          onChange={(event) => {
            setTitle(event.target.value);
            if (createTodo.isError) createTodo.reset();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && onClose) {
              event.preventDefault();
              onClose();
              return;
            }
            if (event.key !== 'Enter') return;
            // Enter here adds the subtask; it must not submit the todo's own form around it.
            event.preventDefault();
            add();
          }}
          className={
            'block min-h-11 w-full min-w-0 rounded-md border border-slate-400 bg-white px-3 ' +
            'py-2 text-base text-slate-900 sm:min-h-10 dark:border-slate-500 dark:bg-slate-950 ' +
            'dark:text-slate-100'
          }
        />
        <Button
          variant="secondary"
          size="sm"
          className="min-h-11 shrink-0 sm:min-h-10"
          disabled={createTodo.isPending || title.trim() === ''}
          onClick={add}
        >
          <Trans>Add subtask</Trans>
        </Button>
      </div>
      {error && (
        <p id={`${fieldId}-error`} className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </section>
  );
}
