import { useId, useState, type FormEvent } from 'react';
import type { Group } from '@tally/contract';
import { LIMITS } from '@tally/contract/constants';
import { Button } from '../../../components/Button';
import { inputClass, labelClass } from '../../../components/form-styles';
import { useCreateTodo } from '../api/create-todo';
import { GroupSelect } from './GroupSelect';
import { TITLE_HINT, TITLE_PATTERN, descriptionOrNull } from './todo-fields';

interface NewTodoFormProps {
  groups: readonly Group[];
  /** The active group filter's id, which the group select starts on; null otherwise. */
  defaultGroupId: number | null;
  onCreated: () => void;
}

/** Title (required), description (3 rows) and group for a new todo. */
export function NewTodoForm({ groups, defaultGroupId, onCreated }: NewTodoFormProps) {
  const createTodo = useCreateTodo();
  const id = useId();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [groupId, setGroupId] = useState<number | null>(defaultGroupId);
  const [shownDefault, setShownDefault] = useState<number | null>(defaultGroupId);
  // A different group filter while the form is open moves the default along with it.
  if (shownDefault !== defaultGroupId) {
    setShownDefault(defaultGroupId);
    setGroupId(defaultGroupId);
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    createTodo.mutate(
      { title: title.trim(), description: descriptionOrNull(description), groupId },
      { onSuccess: onCreated },
    );
  };

  return (
    <form
      onSubmit={submit}
      aria-label="New todo"
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-700 dark:bg-slate-900"
    >
      <div>
        <label htmlFor={`${id}-title`} className={labelClass}>
          Title
        </label>
        <input
          id={`${id}-title`}
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          required
          pattern={TITLE_PATTERN}
          title={TITLE_HINT}
          maxLength={LIMITS.todoTitleMax}
          autoComplete="off"
          autoFocus
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor={`${id}-description`} className={labelClass}>
          Description{' '}
          <span className="font-normal text-slate-600 dark:text-slate-400">(optional)</span>
        </label>
        <textarea
          id={`${id}-description`}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          rows={3}
          maxLength={LIMITS.todoDescriptionMax}
          className={inputClass}
        />
      </div>
      <GroupSelect id={`${id}-group`} value={groupId} groups={groups} onChange={setGroupId} />
      <Button type="submit" disabled={createTodo.isPending}>
        {createTodo.isPending ? 'Creating...' : 'Create Todo'}
      </Button>
    </form>
  );
}
