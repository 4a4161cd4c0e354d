import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import type { Repeat } from '@tally/contract';
import { Button } from '#web/components/Button';
import { SelectField, TextField } from '#web/components/FormField';
import { RepeatFields } from './RepeatFields';

/** What the forms hold: a due date and time ('' for none), a repeat and a reminder. */
export interface Planning {
  dueDate: string;
  dueTime: string;
  repeat: Repeat | null;
  /** Minutes before the due time (0: at it); null for no reminder. */
  remindMinutesBefore: number | null;
}

export const NO_PLANNING: Planning = {
  dueDate: '',
  dueTime: '',
  repeat: null,
  remindMinutesBefore: null,
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
    remindMinutesBefore: time ? planning.remindMinutesBefore : null,
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
  const current = value.remindMinutesBefore;
  // An offset set through the API may not be among the choices: it is offered as it is.
  const choices: readonly number[] =
    current === null || REMINDER_CHOICES.includes(current)
      ? REMINDER_CHOICES
      : [...REMINDER_CHOICES, current];
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
      <div>
        <SelectField
          label={translate`Reminder`}
          value={
            hasTime && value.remindMinutesBefore !== null ? String(value.remindMinutesBefore) : ''
          }
          disabled={!hasTime}
          aria-describedby={hasTime ? undefined : reminderHintId}
          onChange={(event) =>
            onChange({
              remindMinutesBefore: event.target.value === '' ? null : Number(event.target.value),
            })
          }
        >
          <option value="">{translate`No reminder`}</option>
          {choices.map((minutes) => (
            <option key={minutes} value={minutes}>
              {reminderLabel(minutes)}
            </option>
          ))}
        </SelectField>
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
