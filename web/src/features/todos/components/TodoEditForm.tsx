import { useId, useState, type FormEvent } from 'react';
import type { Group, Todo } from '@tally/contract';
import { LIMITS } from '@tally/contract/constants';
import { Button } from '../../../components/Button';
import { inputClass, labelClass } from '../../../components/form-styles';
import { useUpdateTodo } from '../api/update-todo';
import { GroupSelect } from './GroupSelect';
import { TITLE_HINT, TITLE_PATTERN, descriptionOrNull } from './todo-fields';

interface TodoEditFormProps {
  todo: Todo;
  groups: readonly Group[];
  onDone: () => void;
}

/** The inline edit: title (required), description, group; Save and Cancel (or Escape). */
export function TodoEditForm({ todo, groups, onDone }: TodoEditFormProps) {
  const updateTodo = useUpdateTodo();
  const id = useId();
  const [title, setTitle] = useState(todo.title);
  const [description, setDescription] = useState(todo.description ?? '');
  const [groupId, setGroupId] = useState<number | null>(todo.groupId);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    updateTodo.mutate(
      {
        id: todo.id,
        title: title.trim(),
        description: descriptionOrNull(description),
        groupId,
        completed: todo.completed,
      },
      { onSuccess: onDone },
    );
  };

  return (
    <form
      onSubmit={submit}
      aria-label={`Edit todo ${todo.title}`}
      className="min-w-0 flex-1 space-y-3"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onDone();
        }
      }}
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
          Description
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
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={updateTodo.isPending}>
          {updateTodo.isPending ? 'Saving...' : 'Save'}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
