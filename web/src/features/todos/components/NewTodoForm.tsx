import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import type { Group } from '@tally/contract';
import { Button } from '#web/components/Button';
import { Form, FormActions } from '#web/components/Form';
import { useCreateTodo } from '../api/create-todo';
import type { Chip, parseQuickAdd } from '../lib/quick-add';
import { descriptionOrNull, todoFieldErrors } from '../lib/todo-fields';
import { GroupSelect } from './GroupSelect';
import { NO_PLANNING, PlanningFields, planningBody, type Planning } from './PlanningFields';
import { QuickAddChips } from './QuickAddChips';
import { TodoTextFields } from './TodoTextFields';

interface NewTodoFormProps {
  groups: readonly Group[];
  /** The active group filter's id, which the group select starts on; null otherwise. */
  defaultGroupId: number | null;
  /** The due date the form starts with ('' for none): today's in the Today view. */
  defaultDueDate?: string;
  /** The clock quick add reads "tomorrow" by. */
  now: Date;
  onCreated: () => void;
  /** What the form starts with: a page or text shared to Tally. */
  draft?: { title: string; description: string };
}

/**
 * Title (required, with quick add), description (3 rows), group, due date, time and repeat for a
 * new todo. Quick add's parser (chrono-node) is loaded when the form opens, not with the page;
 * until it is there, the title is saved as typed.
 */
export function NewTodoForm({
  groups,
  defaultGroupId,
  defaultDueDate = '',
  now,
  onCreated,
  draft,
}: NewTodoFormProps) {
  const createTodo = useCreateTodo();
  const { t } = useLingui();
  const [title, setTitle] = useState(draft?.title ?? '');
  const [description, setDescription] = useState(draft?.description ?? '');
  const [groupId, setGroupId] = useState<number | null>(defaultGroupId);
  const [shownDefault, setShownDefault] = useState<number | null>(defaultGroupId);
  const [planning, setPlanning] = useState<Planning>({ ...NO_PLANNING, dueDate: defaultDueDate });
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const [parse, setParse] = useState<typeof parseQuickAdd | null>(null);
  const titleRef = useRef<HTMLDivElement>(null);
  // A different group filter while the form is open moves the default along with it.
  if (shownDefault !== defaultGroupId) {
    setShownDefault(defaultGroupId);
    setGroupId(defaultGroupId);
  }

  useEffect(() => {
    let live = true;
    import('../lib/quick-add').then(
      (module) => live && setParse(() => module.parseQuickAdd),
      (error: unknown) => console.warn('Quick add could not be loaded', error),
    );
    return () => {
      live = false;
    };
  }, []);

  const quick = parse?.(title, { groups, dismissed, now, hasDate: planning.dueDate !== '' });
  // What the title says wins over the fields, until the field is changed or the chip removed.
  const dueDate = quick?.dueDate ?? planning.dueDate;
  const effective: Planning = {
    dueDate,
    dueTime: quick?.dueTime ?? planning.dueTime,
    repeat: quick?.repeat ?? planning.repeat,
    reminders: planning.reminders,
  };
  const effectiveGroupId = quick?.groupId ?? groupId;
  const errors = todoFieldErrors(createTodo.error);
  const chipOf = (kind: Chip['kind']) => quick?.chips.find((chip) => chip.kind === kind);

  const dismiss = (...chips: (Chip | undefined)[]) => {
    const keys = chips.flatMap((chip) => chip?.dismiss ?? []);
    if (keys.length > 0) setDismissed((current) => new Set([...current, ...keys]));
  };

  const changePlanning = (change: Partial<Planning>) => {
    // A field changed by hand takes over from its chip, whose words go back into the title.
    // (A date implied by a time or a repeat needs no dismissing: a date of its own replaces it.)
    const dateChip = chipOf('date');
    if (change.dueDate !== undefined && dateChip?.text) dismiss(dateChip);
    if (change.dueTime !== undefined) dismiss(chipOf('time'));
    if (change.repeat !== undefined) dismiss(chipOf('repeat'));
    setPlanning((current) => ({ ...current, ...change }));
  };

  const submit = () => {
    const date = effective.dueDate;
    createTodo.mutate(
      {
        title: quick?.title ?? title.trim(),
        description: descriptionOrNull(description),
        groupId: effectiveGroupId,
        // Sent only when set, so a plain todo is created exactly as before planning.
        ...(date ? { dueDate: date } : {}),
        ...(date && effective.dueTime ? { dueTime: effective.dueTime } : {}),
        ...(date && effective.repeat ? { repeat: effective.repeat } : {}),
        ...(date && effective.dueTime && effective.reminders.length > 0
          ? { reminders: planningBody(effective).reminders }
          : {}),
        ...(quick?.tags ? { tags: quick.tags } : {}),
        ...(quick?.priority ? { priority: quick.priority } : {}),
        ...(quick?.startDate ? { startDate: quick.startDate } : {}),
      },
      { onSuccess: onCreated },
    );
  };

  return (
    <Form
      label={t`New todo`}
      card
      onSubmit={submit}
      // A refusal beside a field goes once the user edits the form.
      onChange={() => {
        if (createTodo.isError) createTodo.reset();
      }}
    >
      <div ref={titleRef} className="space-y-4">
        <TodoTextFields
          title={title}
          description={description}
          onTitleChange={setTitle}
          onDescriptionChange={setDescription}
          errors={errors}
          descriptionLabel={
            <Trans>
              Description{' '}
              <span className="font-normal text-slate-600 dark:text-slate-400">(optional)</span>
            </Trans>
          }
          titleExtra={
            <QuickAddChips
              chips={quick?.chips ?? []}
              title={quick?.title ?? title.trim()}
              onRemove={(chip) => {
                dismiss(chip);
                // The chip's button is gone: back to the title, where its words now are.
                titleRef.current?.querySelector('input')?.focus();
              }}
            />
          }
        />
      </div>
      <GroupSelect
        value={effectiveGroupId}
        groups={groups}
        onChange={(id) => {
          dismiss(chipOf('group'));
          setGroupId(id);
        }}
      />
      <PlanningFields value={effective} onChange={changePlanning} errors={errors} />
      <FormActions>
        <Button type="submit" disabled={createTodo.isPending}>
          {createTodo.isPending ? t`Creating...` : t`Create Todo`}
        </Button>
      </FormActions>
    </Form>
  );
}
