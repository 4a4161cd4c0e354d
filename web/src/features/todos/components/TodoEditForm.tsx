import { useState } from 'react';
import type { Group, Todo } from '@tally/contract';
import { Button } from '#web/components/Button';
import { Form, FormActions } from '#web/components/Form';
import { useUpdateTodo } from '../api/update-todo';
import { descriptionOrNull, todoFieldErrors } from '../lib/todo-fields';
import { DetailFields, detailsOf, tagsOf, type Details } from './DetailFields';
import { GroupSelect } from './GroupSelect';
import { PlanningFields, planningBody, type Planning } from './PlanningFields';
import { TodoTextFields } from './TodoTextFields';

interface TodoEditFormProps {
  todo: Todo;
  groups: readonly Group[];
  /** The edit is saved or cancelled. */
  onDone: () => void;
}

/**
 * The inline edit: title (required), description, group, due date, time and repeat, tags,
 * priority, parent and start date; Save and Cancel (or Escape). The planning fields are always sent: a cleared date is sent as null.
 */
export function TodoEditForm({ todo, groups, onDone }: TodoEditFormProps) {
  const updateTodo = useUpdateTodo();
  const [title, setTitle] = useState(todo.title);
  const [description, setDescription] = useState(todo.description ?? '');
  const [groupId, setGroupId] = useState<number | null>(todo.groupId);
  const [planning, setPlanning] = useState<Planning>({
    dueDate: todo.dueDate ?? '',
    dueTime: todo.dueTime ?? '',
    repeat: todo.repeat,
    remindMinutesBefore: todo.remindMinutesBefore,
  });
  const [details, setDetails] = useState<Details>(() => detailsOf(todo));
  const errors = todoFieldErrors(updateTodo.error);

  const submit = () => {
    updateTodo.mutate(
      {
        id: todo.id,
        title: title.trim(),
        description: descriptionOrNull(description),
        groupId,
        completed: todo.completed,
        ...planningBody(planning),
        tags: tagsOf(details.tags),
        priority: details.priority as 0 | 1 | 2 | 3,
        parentId: details.parentId,
        startDate: details.startDate === '' ? null : details.startDate,
      },
      { onSuccess: onDone },
    );
  };

  return (
    <Form
      label={`Edit todo ${todo.title}`}
      onSubmit={submit}
      // It sits in the todo's row, beside the checkbox's column.
      className="min-w-0 flex-1 space-y-3"
      // A refusal beside a field goes once the user edits the form.
      onChange={() => {
        if (updateTodo.isError) updateTodo.reset();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onDone();
        }
      }}
    >
      <TodoTextFields
        title={title}
        description={description}
        onTitleChange={setTitle}
        onDescriptionChange={setDescription}
        errors={errors}
      />
      <GroupSelect value={groupId} groups={groups} onChange={setGroupId} />
      <PlanningFields
        value={planning}
        onChange={(change) => setPlanning((current) => ({ ...current, ...change }))}
        errors={errors}
      />
      <DetailFields
        todo={todo}
        value={details}
        onChange={(change) => setDetails((current) => ({ ...current, ...change }))}
      />
      <FormActions>
        <Button type="submit" disabled={updateTodo.isPending}>
          {updateTodo.isPending ? 'Saving...' : 'Save'}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </FormActions>
    </Form>
  );
}
