import { useState } from 'react';
import type { Group } from '@tally/contract';
import { Button } from '#web/components/Button';
import { Form, FormActions } from '#web/components/Form';
import { useCreateTodo } from '../api/create-todo';
import { descriptionOrNull } from '../lib/todo-fields';
import { GroupSelect } from './GroupSelect';
import { TodoTextFields } from './TodoTextFields';

interface NewTodoFormProps {
  groups: readonly Group[];
  /** The active group filter's id, which the group select starts on; null otherwise. */
  defaultGroupId: number | null;
  onCreated: () => void;
}

/** Title (required), description (3 rows) and group for a new todo. */
export function NewTodoForm({ groups, defaultGroupId, onCreated }: NewTodoFormProps) {
  const createTodo = useCreateTodo();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [groupId, setGroupId] = useState<number | null>(defaultGroupId);
  const [shownDefault, setShownDefault] = useState<number | null>(defaultGroupId);
  // A different group filter while the form is open moves the default along with it.
  if (shownDefault !== defaultGroupId) {
    setShownDefault(defaultGroupId);
    setGroupId(defaultGroupId);
  }

  const submit = () => {
    createTodo.mutate(
      { title: title.trim(), description: descriptionOrNull(description), groupId },
      { onSuccess: onCreated },
    );
  };

  return (
    <Form label="New todo" card onSubmit={submit}>
      <TodoTextFields
        title={title}
        description={description}
        onTitleChange={setTitle}
        onDescriptionChange={setDescription}
        descriptionLabel={
          <>
            Description{' '}
            <span className="font-normal text-slate-600 dark:text-slate-400">(optional)</span>
          </>
        }
      />
      <GroupSelect value={groupId} groups={groups} onChange={setGroupId} />
      <FormActions>
        <Button type="submit" disabled={createTodo.isPending}>
          {createTodo.isPending ? 'Creating...' : 'Create Todo'}
        </Button>
      </FormActions>
    </Form>
  );
}
