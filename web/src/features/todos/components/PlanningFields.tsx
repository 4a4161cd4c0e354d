import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { LIMITS } from '@tally/contract/constants';
import type { Repeat } from '@tally/contract';
import { Button } from '#web/components/Button';
import { SelectField, TextField } from '#web/components/FormField';
import { RepeatFields } from './RepeatFields';

/** What the forms hold: a due date and time ('' for none), a repeat and the reminders. */
export interface Planning {
  dueDate: string;
  dueTime: string;
  repeat: Repeat | null;
  /** Each in minutes before the due time (0: at it), in the order the rows show them. */
  reminders: number[];
}

export const NO_PLANNING: Planning = {
  dueDate: '',
  dueTime: '',
  repeat: null,
  reminders: [],
};

/**
 * The planning fields as the API takes them: a time and a repeat only with a date, a reminder
 * only with a time.
 */
export function planningBody(planning: Planning) {
  const date = planning.dueDate || null;
  const time = date && planning.dueTime ? planning.dueTime : null;
  return {
    dueDate: date,
    dueTime: time,
    repeat: date ? planning.repeat : null,
    // As the server keeps them (each once, largest first), so an unchanged list is no change.
    reminders: time ? [...new Set(planning.reminders)].sort((a, b) => b - a) : [],
  };
}

/** The reminder choices, in minutes before the due time (docs/product.md, Reminders). */
const REMINDER_CHOICES: readonly number[] = [0, 5, 10, 15, 30, 60, 120, 1440];

/** "At the due time", "5 minutes before", "2 hours before", "1 day before". */
function reminderLabel(minutes: number): string {
  if (minutes === 0) return t`At the due time`;
  if (minutes % 1440 === 0) {
    return plural(minutes / 1440, { one: '# day before', other: '# days before' });
  }
  if (minutes % 60 === 0) {
    return plural(minutes / 60, { one: '# hour before', other: '# hours before' });
  }
  return plural(minutes, { one: '# minute before', other: '# minutes before' });
}

interface PlanningFieldsProps {
  value: Planning;
  onChange: (change: Partial<Planning>) => void;
  /** The sentences refusing the date or time, shown beside each. */
  errors?: { dueDate?: string | null; dueTime?: string | null };
}

/**
 * Due date (with Clear), time and repeat. A time or a repeat without a date is prevented: both
 * are disabled, and say why, until a date is set.
 */
export function PlanningFields({ value, onChange, errors = {} }: PlanningFieldsProps) {
  const hintId = useId();
  const reminderHintId = useId();
  const hasDate = value.dueDate !== '';
  const hasTime = hasDate && value.dueTime !== '';
  const reminders = hasTime ? value.reminders : [];
  // An offset set through the API may not be among the choices: it is offered as it is.
  const extra = reminders.filter((minutes) => !REMINDER_CHOICES.includes(minutes));
  const choices: readonly number[] = [...REMINDER_CHOICES, ...extra];
  const several = reminders.length > 1;
  const setReminder = (index: number, minutes: number | null) =>
    onChange({
      reminders:
        minutes === null
          ? reminders.filter((_, i) => i !== index)
          : Object.assign([...reminders], { [index]: minutes }),
    });
  const unused = REMINDER_CHOICES.find((minutes) => !reminders.includes(minutes));
  const { t: translate } = useLingui();
  return (
    // Two columns only where the form itself is wide (a container query, not the window's width):
    // in the detail panel a date beside its Clear button would be cut ("11/29/202").
    <div className="@container space-y-4">
      <div className="grid gap-4 @md:grid-cols-2">
        <div className="flex items-end gap-2">
          <div className="min-w-0 flex-1">
            <TextField
              label={translate`Due date`}
              type="date"
              value={value.dueDate}
              onChange={(event) => onChange({ dueDate: event.target.value })}
              error={errors.dueDate}
            />
          </div>
          {hasDate && (
            <Button
              variant="secondary"
              aria-label={translate`Clear due date`}
              className="min-h-[42px]"
              onClick={() => onChange({ dueDate: '' })}
            >
              <Trans>Clear</Trans>
            </Button>
          )}
        </div>
        <TextField
          label={translate`Time`}
          type="time"
          value={value.dueTime}
          disabled={!hasDate}
          aria-describedby={hasDate ? undefined : hintId}
          onChange={(event) => onChange({ dueTime: event.target.value })}
          error={errors.dueTime}
        />
      </div>
      {!hasDate && (
        <p id={hintId} className="-mt-2 text-sm text-slate-600 dark:text-slate-400">
          <Trans>A time and a repeat need a due date.</Trans>
        </p>
      )}
      <div className="space-y-2">
        {(reminders.length === 0 ? [null] : reminders).map((minutes, index) => (
          <div key={index} className="flex items-end gap-2">
            <div className="min-w-0 flex-1">
              <SelectField
                label={index === 0 ? translate`Reminder` : translate`Reminder ${index + 1}`}
                value={minutes === null ? '' : String(minutes)}
                disabled={!hasTime}
                aria-describedby={hasTime ? undefined : reminderHintId}
                onChange={(event) =>
                  setReminder(index, event.target.value === '' ? null : Number(event.target.value))
                }
              >
                {/* With several, each row has its Remove button instead. */}
                {!several && <option value="">{translate`No reminder`}</option>}
                {choices.map((choice) => (
                  <option
                    key={choice}
                    value={choice}
                    // Each offset once: another row already reminds then.
                    disabled={choice !== minutes && reminders.includes(choice)}
                  >
                    {reminderLabel(choice)}
                  </option>
                ))}
              </SelectField>
            </div>
            {several && minutes !== null && (
              <Button
                variant="secondary"
                aria-label={translate`Remove reminder ${index + 1} (${reminderLabel(minutes)})`}
                className="min-h-[42px]"
                onClick={() => setReminder(index, null)}
              >
                <Trans>Remove</Trans>
              </Button>
            )}
          </div>
        ))}
        {reminders.length > 0 &&
          reminders.length < LIMITS.remindersPerTodoMax &&
          unused !== undefined && (
            <Button
              variant="secondary"
              onClick={() => onChange({ reminders: [...reminders, unused] })}
            >
              <Trans>Add another reminder</Trans>
            </Button>
          )}
        {hasDate && !hasTime && (
          <p id={reminderHintId} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            <Trans>A reminder needs a time.</Trans>
          </p>
        )}
      </div>
      <RepeatFields
        repeat={value.repeat}
        dueDate={value.dueDate}
        describedBy={hasDate ? undefined : hintId}
        onChange={(repeat) => onChange({ repeat })}
      />
    </div>
  );
}
