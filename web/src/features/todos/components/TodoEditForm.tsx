import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Group, PatchTodoBody, Todo } from '@tally/contract';
import { conflictOf } from '#web/lib/api-client';
import { Button } from '#web/components/Button';
import { Form, FormActions } from '#web/components/Form';
import { reportMutationError } from '#web/lib/mutation-errors';
import { saveTodoFields, useSaveTodoFields, useUpdateTodo } from '../api/update-todo';
import type { EditedField } from '../lib/edit-undo';
import { todoFieldErrors } from '../lib/todo-fields';
import { DetailFields } from './DetailFields';
import { FieldConflict } from './FieldConflict';
import { GroupSelect } from './GroupSelect';
import { PlanningFields } from './PlanningFields';
import { TodoTextFields } from './TodoTextFields';
import {
  changedFields,
  differ,
  formStateOf,
  pick,
  valuesOf,
  valuesOfTodo,
  withFields,
  type FormState,
  type FormValues,
} from './todo-form-values';

/** Fields changed elsewhere while the person had changed them too, awaiting their choice. */
interface Conflict {
  fields: EditedField[];
  /** What they typed in those fields. */
  mine: FormValues;
  /** The todo as it is now. */
  theirs: FormValues;
  theirsState: FormState;
}

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

/**
 * A todo's edit: title (required), description, group, due date, time and repeat, tags,
 * priority, parent and start date; Save and Cancel (or Escape).
 *
 * In the row (the inline edit), Save sends the fields the person changed since the form opened
 * (PATCH, a cleared date as null) with the version the row shows, and Cancel or Escape drop the
 * edit. In the detail view nothing typed is
 * lost by closing (docs/product.md, Title and checkbox): a field is saved as the person leaves
 * it, and Close, Escape, a click outside, Save or leaving the screen save what is left, each
 * sending only the fields that changed (PATCH), so a field changed meanwhile elsewhere keeps that
 * change; the toast's Undo takes back everything the view saved. Cancel puts back what the view
 * saved and drops the rest.
 */
export function TodoEditForm({ todo, groups, onDone, saveRef }: TodoEditFormProps) {
  const queryClient = useQueryClient();
  const updateTodo = useUpdateTodo();
  const { t } = useLingui();
  const todoTitle = todo.title;
  const saveFields = useSaveTodoFields();
  const detail = saveRef !== undefined;
  const [state, setState] = useState(() => formStateOf(todo));
  const { title, description, groupId, planning, details } = state;
  const mutation = detail ? saveFields : updateTodo;
  const errors = todoFieldErrors(mutation.error);
  const values = valuesOf(state);

  // The detail view's saves. `opened`: the todo and its values as the view opened on them;
  // `sent`: each field's value on the server as far as the view knows (as last sent, or as
  // changed elsewhere); `base`: the version that knowledge is of, sent as If-Match; `latest`:
  // what the form holds now (read when it unmounts); `chain`: the last save, so that saves reach
  // the server in the order made.
  const formRef = useRef<HTMLFormElement>(null);
  const [opened] = useState(() => ({ todo, values }));
  const sent = useRef(values);
  const base = useRef(todo.version);
  const latest = useRef(values);
  useEffect(() => {
    latest.current = values;
  });
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const discarded = useRef(false);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const conflictRef = useRef<Conflict | null>(null);
  const showConflict = (next: Conflict | null) => {
    conflictRef.current = next;
    setConflict(next);
  };

  /** Fields in conflict that still hold what the person had typed: not sent until they choose. */
  const held = (): EditedField[] => {
    const current = conflictRef.current;
    if (!current) return [];
    return current.fields.filter((field) => !differ(latest.current[field], current.mine[field]));
  };
  const unsaved = (): PatchTodoBody | null => {
    const waiting = new Set(held());
    const fields = changedFields(latest.current, sent.current).filter((f) => !waiting.has(f));
    return fields.length > 0 ? pick(latest.current, fields) : null;
  };
  const savedFields = () => changedFields(sent.current, opened.values);
  const settle = (fields: readonly EditedField[]) => {
    const current = conflictRef.current;
    if (!current) return;
    const left = current.fields.filter((field) => !fields.includes(field));
    showConflict(left.length > 0 ? { ...current, fields: left } : null);
  };

  /**
   * The todo changed elsewhere (a live change, or a 412's answer): fields the person has not
   * touched take the new value; a field they changed to something else becomes a conflict.
   * `mine`: what they have typed. Later saves start from this version.
   */
  const follow = (current: Todo, mine: FormValues) => {
    const theirs = valuesOfTodo(current);
    const theirsState = formStateOf(current);
    const changed = changedFields(theirs, sent.current);
    const touched = new Set(changedFields(mine, sent.current));
    const adopted = changed.filter((field) => !touched.has(field));
    const clashing = changed.filter(
      (field) => touched.has(field) && differ(theirs[field], mine[field]),
    );
    sent.current = { ...sent.current, ...pick(theirs, changed) };
    latest.current = { ...latest.current, ...pick(theirs, adopted) };
    base.current = current.version;
    if (adopted.length > 0) setState((now) => withFields(now, theirsState, adopted));
    if (clashing.length > 0) {
      const before = conflictRef.current;
      showConflict({
        fields: [...new Set([...(before?.fields ?? []), ...clashing])],
        mine: { ...(before?.mine ?? mine), ...pick(mine, clashing) } as FormValues,
        theirs,
        theirsState,
      });
    }
  };

  /**
   * One save, If-Match the version the view knows. Changed elsewhere meanwhile (412): the view
   * follows the todo as it is now, the fields changed on both sides wait for the person's choice,
   * and the rest of the save goes again on the new version.
   */
  const attempt = (body: PatchTodoBody, before: FormValues): Promise<unknown> => {
    const fields = Object.keys(body) as EditedField[];
    const save = { opened: opened.todo, body, version: base.current, saved: savedFields() };
    return saveFields.mutateAsync(save).then(
      (updated) => {
        base.current = updated.version;
        settle(fields);
      },
      (error: unknown) => {
        // Not saved: those fields count as unsaved again, and go with the next save.
        sent.current = { ...sent.current, ...pick(before, fields) };
        const current = conflictOf<Todo>(error);
        if (!current) throw error;
        const mine = { ...latest.current, ...body } as FormValues;
        follow(current, mine);
        const waiting = new Set(conflictRef.current?.fields ?? []);
        const again = changedFields(mine, sent.current).filter(
          (field) => fields.includes(field) && !waiting.has(field),
        );
        if (again.length === 0) return;
        const retried = sent.current;
        sent.current = { ...sent.current, ...pick(mine, again) };
        return attempt(pick(mine, again), retried);
      },
    );
  };

  // A change made elsewhere while the view is open (the live stream refreshes the lists) is
  // followed when no save is on its way: `sent` then holds what the server has; a save's answer
  // (or its 412) says how it stands meanwhile.
  const saving = useRef(0);
  const live = useRef(todo);
  const followLive = () => {
    if (detail && saving.current === 0 && live.current.version > base.current) {
      follow(live.current, latest.current);
    }
  };
  useEffect(() => {
    live.current = todo;
    followLive();
    // Only a newer todo: the rest is read through refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [todo]);

  const send = (body: PatchTodoBody): Promise<unknown> => {
    const before = sent.current;
    sent.current = { ...before, ...body };
    saving.current += 1;
    chain.current = chain.current
      .catch(() => undefined)
      .then(() => attempt(body, before))
      .finally(() => {
        saving.current -= 1;
        followLive();
      });
    return chain.current;
  };

  const keepMine = (field: EditedField) => {
    const current = conflictRef.current;
    if (!current) return;
    settle([field]);
    send(pick(current.mine, [field])).catch(() => undefined);
  };
  const takeTheirs = (field: EditedField) => {
    const current = conflictRef.current;
    if (!current) return;
    latest.current = { ...latest.current, ...pick(current.theirs, [field]) };
    setState((now) => withFields(now, current.theirsState, [field]));
    settle([field]);
  };
  const conflictsOf = (fields: readonly EditedField[]) =>
    conflict?.fields
      .filter((field) => fields.includes(field))
      .map((field) => (
        <FieldConflict
          key={field}
          field={field}
          mine={conflict.mine}
          theirs={conflict.theirs}
          groups={groups}
          onKeepMine={keepMine}
          onTakeTheirs={takeTheirs}
        />
      ));

  const flush = (): Promise<boolean> => {
    const form = formRef.current;
    if (form && !form.checkValidity()) {
      // A blank title cannot be saved: say so rather than close and lose it (Cancel drops it).
      form.reportValidity();
      return Promise.resolve(false);
    }
    const body = unsaved();
    // Refused, or changed elsewhere: the view stays open, the sentence beside the field.
    return (body ? send(body) : chain.current).then(
      () => conflictRef.current === null,
      () => unsaved() === null && conflictRef.current === null,
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
        .mutateAsync({ opened: opened.todo, body, version: base.current, saved, quiet: true })
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
      const save = { opened: opened.todo, body, version: base.current, saved: savedFields() };
      saveTodoFields(queryClient, save).catch((error: unknown) =>
        reportMutationError(error, msg`Update todo failed`),
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
    const fields = changedFields(values, opened.values);
    if (fields.length === 0) {
      onDone();
      return;
    }
    updateTodo.mutate({ todo, body: pick(values, fields) }, { onSuccess: onDone });
  };

  return (
    <Form
      ref={formRef}
      label={t`Edit todo ${todoTitle}`}
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
        onTitleChange={(next) => setState((now) => ({ ...now, title: next }))}
        onDescriptionChange={(next) => setState((now) => ({ ...now, description: next }))}
        titleExtra={conflictsOf(['title'])}
        errors={errors}
      />
      {conflictsOf(['description'])}
      <GroupSelect
        value={groupId}
        groups={groups}
        onChange={(next) => setState((now) => ({ ...now, groupId: next }))}
      />
      {conflictsOf(['groupId'])}
      <PlanningFields
        value={planning}
        onChange={(change) =>
          setState((now) => ({ ...now, planning: { ...now.planning, ...change } }))
        }
        errors={errors}
      />
      {conflictsOf(Object.keys(planning) as (keyof typeof planning)[])}
      <DetailFields
        todo={todo}
        value={details}
        onChange={(change) =>
          setState((now) => ({ ...now, details: { ...now.details, ...change } }))
        }
      />
      {conflictsOf(Object.keys(details) as (keyof typeof details)[])}
      <FormActions>
        <Button type="submit" data-form-action disabled={mutation.isPending}>
          {mutation.isPending ? t`Saving...` : t`Save`}
        </Button>
        <Button variant="secondary" data-form-action onClick={detail ? cancel : onDone}>
          <Trans>Cancel</Trans>
        </Button>
      </FormActions>
    </Form>
  );
}
