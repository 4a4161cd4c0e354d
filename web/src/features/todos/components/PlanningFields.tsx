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
const REMINDER_CHOICES: [number, string][] = [
  [0, 'At the due time'],
  [5, '5 minutes before'],
  [10, '10 minutes before'],
  [15, '15 minutes before'],
  [30, '30 minutes before'],
  [60, '1 hour before'],
  [120, '2 hours before'],
  [1440, '1 day before'],
];

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
  const choices: [number, string][] =
    current === null || REMINDER_CHOICES.some(([minutes]) => minutes === current)
      ? REMINDER_CHOICES
      : [...REMINDER_CHOICES, [current, `${current} minutes before`]];
  return (
    // Two columns only where the form itself is wide (a container query, not the window's width):
    // in the detail panel a date beside its Clear button would be cut ("11/29/202").
    <div className="@container space-y-4">
      <div className="grid gap-4 @md:grid-cols-2">
        <div className="flex items-end gap-2">
          <div className="min-w-0 flex-1">
            <TextField
              label="Due date"
              type="date"
              value={value.dueDate}
              onChange={(event) => onChange({ dueDate: event.target.value })}
              error={errors.dueDate}
            />
          </div>
          {hasDate && (
            <Button
              variant="secondary"
              aria-label="Clear due date"
              className="min-h-[42px]"
              onClick={() => onChange({ dueDate: '' })}
            >
              Clear
            </Button>
          )}
        </div>
        <TextField
          label="Time"
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
          A time and a repeat need a due date.
        </p>
      )}
      <div>
        <SelectField
          label="Reminder"
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
          <option value="">No reminder</option>
          {choices.map(([minutes, label]) => (
            <option key={minutes} value={minutes}>
              {label}
            </option>
          ))}
        </SelectField>
        {hasDate && !hasTime && (
          <p id={reminderHintId} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            A reminder needs a time.
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
