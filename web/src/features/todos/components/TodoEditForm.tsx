import { useEffect, useRef, useState, type RefObject } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Group, PatchTodoBody, Todo } from '@tally/contract';
import { Button } from '#web/components/Button';
import { Form, FormActions } from '#web/components/Form';
import { reportMutationError } from '#web/lib/mutation-errors';
import { saveTodoFields, useSaveTodoFields, useUpdateTodo } from '../api/update-todo';
import type { EditedField } from '../lib/edit-undo';
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
  /**
   * The detail view: the form puts here the function that saves what is left, resolving to
   * whether all is saved (false: a refusal or a blank title, shown in the form). The view calls
   * it before it closes (Close, Escape, a click outside) or completes. With it, each field is
   * also saved as the person leaves it. Without it (the row's inline edit), Save sends the whole
   * todo and Cancel drops the edit.
   */
  saveRef?: RefObject<(() => Promise<boolean>) | null>;
}

/** What the form holds, as the API takes it. */
type Values = Pick<Required<PatchTodoBody>, EditedField>;

const differ = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);

/** The fields whose value in `next` is not the one in `base`. */
const changedFields = (next: Values, base: Values) =>
  (Object.keys(next) as EditedField[]).filter((field) => differ(next[field], base[field]));

/** Those fields of `values`, as a PATCH body. */
const pick = (values: Values, fields: readonly EditedField[]): PatchTodoBody =>
  Object.fromEntries(fields.map((field) => [field, values[field]]));

/**
 * A todo's edit: title (required), description, group, due date, time and repeat, tags,
 * priority, parent and start date; Save and Cancel (or Escape).
 *
 * In the row (SPEC's inline edit), Save sends the whole todo, the planning fields included (a
 * cleared date as null), and Cancel or Escape drop the edit. In the detail view nothing typed is
 * lost by closing (docs/product.md, Title and checkbox): a field is saved as the person leaves
 * it, and Close, Escape, a click outside, Save or leaving the screen save what is left, each
 * sending only the fields that changed (PATCH), so a field changed meanwhile elsewhere keeps that
 * change; the toast's Undo takes back everything the view saved. Cancel puts back what the view
 * saved and drops the rest.
 */
export function TodoEditForm({ todo, groups, onDone, saveRef }: TodoEditFormProps) {
  const queryClient = useQueryClient();
  const updateTodo = useUpdateTodo();
  const saveFields = useSaveTodoFields();
  const detail = saveRef !== undefined;
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
  const mutation = detail ? saveFields : updateTodo;
  const errors = todoFieldErrors(mutation.error);

  const values: Values = {
    title: title.trim(),
    description: descriptionOrNull(description),
    groupId,
    ...planningBody(planning),
    tags: tagsOf(details.tags),
    priority: details.priority as 0 | 1 | 2 | 3,
    parentId: details.parentId,
    startDate: details.startDate === '' ? null : details.startDate,
  };

  // The detail view's saves. `opened`: the todo and its values as the view opened on them;
  // `sent`: each field's value as last sent; `latest`: what the form holds now (read when it
  // unmounts); `chain`: the last save, so that saves reach the server in the order made.
  const formRef = useRef<HTMLFormElement>(null);
  const [opened] = useState(() => ({ todo, values }));
  const sent = useRef(values);
  const latest = useRef(values);
  useEffect(() => {
    latest.current = values;
  });
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const discarded = useRef(false);

  const unsaved = (): PatchTodoBody | null => {
    const fields = changedFields(latest.current, sent.current);
    return fields.length > 0 ? pick(latest.current, fields) : null;
  };
  const savedFields = () => changedFields(sent.current, opened.values);

  const send = (body: PatchTodoBody): Promise<unknown> => {
    const before = sent.current;
    sent.current = { ...before, ...body };
    const save = { opened: opened.todo, body, saved: savedFields() };
    const run = () =>
      saveFields.mutateAsync(save).catch((error: unknown) => {
        // Not saved: those fields count as unsaved again, and go with the next save.
        const fields = Object.keys(body) as EditedField[];
        sent.current = { ...sent.current, ...pick(before, fields) };
        throw error;
      });
    chain.current = chain.current.catch(() => undefined).then(run);
    return chain.current;
  };

  const flush = (): Promise<boolean> => {
    const form = formRef.current;
    if (form && !form.checkValidity()) {
      // A blank title cannot be saved: say so rather than close and lose it (Cancel drops it).
      form.reportValidity();
      return Promise.resolve(false);
    }
    const body = unsaved();
    // Refused: the view stays open, the sentence beside the field.
    return (body ? send(body) : chain.current).then(
      () => true,
      () => unsaved() === null,
    );
  };
  const close = () =>
    void flush().then((saved) => {
      if (saved) onDone();
    });

  const cancel = () => {
    discarded.current = true;
    const saved = savedFields();
    if (saved.length > 0) {
      const body = pick(opened.values, saved);
      void saveFields
        .mutateAsync({ opened: opened.todo, body, saved, quiet: true })
        .catch(() => undefined);
    }
    onDone();
  };

  useEffect(() => {
    if (!saveRef) return;
    saveRef.current = flush;
    return () => {
      saveRef.current = null;
    };
  });

  // Leaving the screen (or anything else that takes the view away) saves what is left.
  useEffect(
    () => () => {
      if (!detail || discarded.current) return;
      const body = unsaved();
      if (!body) return;
      sent.current = { ...sent.current, ...body };
      saveTodoFields(queryClient, { opened: opened.todo, body, saved: savedFields() }).catch(
        (error: unknown) => reportMutationError(error, 'Update todo'),
      );
    },
    // Once, when the form goes: what it holds then is read through refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  const submit = () => {
    if (detail) {
      close();
      return;
    }
    updateTodo.mutate({ id: todo.id, ...values, completed: todo.completed }, { onSuccess: onDone });
  };

  return (
    <Form
      ref={formRef}
      label={`Edit todo ${todo.title}`}
      onSubmit={submit}
      // It sits in the todo's row, beside the checkbox's column.
      className="min-w-0 flex-1 space-y-3"
      // A refusal beside a field goes once the user edits the form.
      onChange={() => {
        if (mutation.isError) mutation.reset();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          if (detail) close();
          else onDone();
        }
      }}
      onBlur={(event) => {
        if (!detail) return;
        // Leaving for Save or Cancel: they save, or put back, themselves.
        const next = event.relatedTarget;
        if (next instanceof Element && next.closest('[data-form-action]')) return;
        if (!event.currentTarget.checkValidity()) return;
        const body = unsaved();
        if (body) send(body).catch(() => undefined);
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
        <Button type="submit" data-form-action disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving...' : 'Save'}
        </Button>
        <Button variant="secondary" data-form-action onClick={detail ? cancel : onDone}>
          Cancel
        </Button>
      </FormActions>
    </Form>
  );
}
