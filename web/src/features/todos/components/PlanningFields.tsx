import { useId } from 'react';
import type { Repeat } from '@tally/contract';
import { Button } from '#web/components/Button';
import { TextField } from '#web/components/FormField';
import { RepeatFields } from './RepeatFields';

/** What the forms hold: a due date and time ('' for none) and a repeat. */
export interface Planning {
  dueDate: string;
  dueTime: string;
  repeat: Repeat | null;
}

export const NO_PLANNING: Planning = { dueDate: '', dueTime: '', repeat: null };

/** The planning fields as the API takes them: a time and a repeat only with a date. */
export function planningBody(planning: Planning) {
  const date = planning.dueDate || null;
  return {
    dueDate: date,
    dueTime: date && planning.dueTime ? planning.dueTime : null,
    repeat: date ? planning.repeat : null,
  };
}

interface PlanningFieldsProps {
  value: Planning;
  onChange: (change: Partial<Planning>) => void;
}

/**
 * Due date (with Clear), time and repeat. A time or a repeat without a date is prevented: both
 * are disabled, and say why, until a date is set.
 */
export function PlanningFields({ value, onChange }: PlanningFieldsProps) {
  const hintId = useId();
  const hasDate = value.dueDate !== '';
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex items-end gap-2">
          <div className="min-w-0 flex-1">
            <TextField
              label="Due date"
              type="date"
              value={value.dueDate}
              onChange={(event) => onChange({ dueDate: event.target.value })}
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
        />
      </div>
      {!hasDate && (
        <p id={hintId} className="-mt-2 text-sm text-slate-600 dark:text-slate-400">
          A time and a repeat need a due date.
        </p>
      )}
      <RepeatFields
        repeat={value.repeat}
        dueDate={value.dueDate}
        describedBy={hasDate ? undefined : hintId}
        onChange={(repeat) => onChange({ repeat })}
      />
    </div>
  );
}
