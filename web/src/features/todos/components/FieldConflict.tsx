import { useId } from 'react';
import type { Group } from '@tally/contract';
import { PRIORITY_LABELS } from '@tally/contract/constants';
import { Button } from '#web/components/Button';
import { fieldWords, type EditedField } from '../lib/edit-undo';
import { describeRepeat } from '../lib/repeat';
import type { FormValues } from './todo-form-values';

/** One field's value as a person reads it ("none" for an empty one). */
function shown(field: EditedField, values: FormValues, groups: readonly Group[]): string {
  const value = values[field];
  if (field === 'groupId') {
    return groups.find((group) => group.id === value)?.name ?? 'No Group';
  }
  if (field === 'repeat') {
    return values.repeat ? describeRepeat(values.repeat, values.dueDate) : 'none';
  }
  if (field === 'priority') return PRIORITY_LABELS[values.priority] || 'none';
  if (field === 'tags') return values.tags.length > 0 ? values.tags.join(' ') : 'none';
  return value === null || value === '' ? 'none' : String(value);
}

interface FieldConflictProps {
  field: EditedField;
  /** What the person typed. */
  mine: FormValues;
  /** The todo as it is now, changed elsewhere. */
  theirs: FormValues;
  groups: readonly Group[];
  onKeepMine: (field: EditedField) => void;
  onTakeTheirs: (field: EditedField) => void;
}

/**
 * A field changed elsewhere since the person began changing it (a 412, or a live change to a
 * field they have touched): both values side by side, beside the field, and the two ways out.
 * Editing the field again is the third: what is then saved is what they typed.
 */
export function FieldConflict({
  field,
  mine,
  theirs,
  groups,
  onKeepMine,
  onTakeTheirs,
}: FieldConflictProps) {
  const sentenceId = useId();
  const words = fieldWords(field);
  return (
    <div
      role="alert"
      data-conflict={field}
      className={
        'mt-2 rounded-md border border-amber-500 bg-amber-50 p-3 text-sm text-amber-950 ' +
        'dark:border-amber-400 dark:bg-amber-950 dark:text-amber-50'
      }
    >
      <p id={sentenceId} className="break-words">
        Changed elsewhere while you edited: the {words} is now “{shown(field, theirs, groups)}”;
        yours is “{shown(field, mine, groups)}”.
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          className="min-h-11 sm:min-h-9"
          aria-describedby={sentenceId}
          onClick={() => onKeepMine(field)}
        >
          Keep mine
        </Button>
        <Button
          variant="secondary"
          size="sm"
          className="min-h-11 sm:min-h-9"
          aria-describedby={sentenceId}
          onClick={() => onTakeTheirs(field)}
        >
          Take theirs
        </Button>
      </div>
    </div>
  );
}
