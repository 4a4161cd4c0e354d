import { Trans, useLingui } from '@lingui/react/macro';
import type { PatchTodoBody, Todo } from '@tally/contract';
import { LIMITS } from '@tally/contract/constants';
import { useState } from 'react';
import { Button } from '#web/components/Button';
import { Dialog } from '#web/components/Dialog';
import { Fieldset, TextField } from '#web/components/FormField';

/** "Move to…": the keyboard's and the screen reader's way to give a todo another day, time or length. */
export function MoveDialog({
  todo,
  onClose,
  onMove,
}: {
  todo: Todo;
  onClose: () => void;
  onMove: (todo: Todo, patch: PatchTodoBody) => void;
}) {
  const [date, setDate] = useState(todo.dueDate ?? '');
  const { t } = useLingui();
  const { title } = todo;
  const [time, setTime] = useState(todo.dueTime ?? '');
  const [duration, setDuration] = useState(
    todo.durationMinutes === null ? '' : String(todo.durationMinutes),
  );
  const minutes = duration === '' ? null : Number(duration);
  const badDuration =
    minutes !== null &&
    !(Number.isInteger(minutes) && minutes >= 1 && minutes <= LIMITS.durationMinutesMax);
  const badTime = time !== '' && date === '';
  const maxMinutes = LIMITS.durationMinutesMax;

  const submit = () => {
    if (badDuration || badTime) return;
    const patch: PatchTodoBody = {};
    const dueDate = date || null;
    const dueTime = time || null;
    if (dueDate !== todo.dueDate) patch.dueDate = dueDate;
    if (dueTime !== todo.dueTime) patch.dueTime = dueTime;
    if (minutes !== todo.durationMinutes) patch.durationMinutes = minutes;
    if (Object.keys(patch).length > 0) onMove(todo, patch);
    onClose();
  };

  return (
    <Dialog
      open
      title={t`Move "${title}" to…`}
      onClose={onClose}
      actions={
        <>
          <Button variant="outline" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button onClick={submit} disabled={badDuration || badTime}>
            <Trans>Move</Trans>
          </Button>
        </>
      }
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        className="space-y-3"
      >
        <Fieldset legend={t`When`}>
          <div className="grid grid-cols-2 gap-3">
            <TextField
              label={t`Date`}
              type="date"
              value={date}
              onChange={(event) => setDate(event.target.value)}
              data-autofocus
            />
            <TextField
              label={t`Time`}
              type="time"
              value={time}
              onChange={(event) => setTime(event.target.value)}
              aria-invalid={badTime}
            />
          </div>
        </Fieldset>
        {badTime && (
          <p className="text-sm text-red-700 dark:text-red-300">
            <Trans>A time needs a date.</Trans>
          </p>
        )}
        <TextField
          label={t`Duration (minutes)`}
          type="number"
          inputMode="numeric"
          min={1}
          max={LIMITS.durationMinutesMax}
          value={duration}
          onChange={(event) => setDuration(event.target.value)}
          aria-invalid={badDuration}
        />
        {badDuration && (
          <p className="text-sm text-red-700 dark:text-red-300">
            <Trans>The duration is 1 to {maxMinutes} minutes, or empty for none.</Trans>
          </p>
        )}
        {/* Enter in a field moves, as the dialog's button does. */}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}

/** A repeating todo moved: only this occurrence, or every one (the rule moves with it). */
export function RepeatChoiceDialog({
  todo,
  onChoose,
  onClose,
}: {
  todo: Todo;
  onChoose: (all: boolean) => void;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const { title } = todo;
  return (
    <Dialog
      open
      title={t`Move "${title}"`}
      onClose={onClose}
      actions={
        <>
          <Button variant="outline" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button variant="secondary" onClick={() => onChoose(false)} data-autofocus>
            <Trans>This one</Trans>
          </Button>
          <Button onClick={() => onChoose(true)}>
            <Trans>All</Trans>
          </Button>
        </>
      }
    >
      <Trans>It repeats. Move only this occurrence, or all of them?</Trans>
    </Dialog>
  );
}
