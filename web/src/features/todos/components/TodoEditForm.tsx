import { useId, useState, type FormEvent } from 'react';
import type { Group, Todo } from '@tally/contract';
import { Button } from '#web/components/Button';
import { useUpdateTodo } from '../api/update-todo';
import { GroupSelect } from './GroupSelect';
import { descriptionOrNull } from '../lib/todo-fields';
import { TodoTextFields } from './TodoTextFields';

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
      <TodoTextFields
        idPrefix={id}
        title={title}
        description={description}
        onTitleChange={setTitle}
        onDescriptionChange={setDescription}
      />
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
