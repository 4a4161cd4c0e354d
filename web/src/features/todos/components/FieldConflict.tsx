import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import type { Group } from '@tally/contract';
import { Button } from '#web/components/Button';
import { fieldWords, type EditedField } from '../lib/edit-undo';
import { PRIORITY_NAMES } from '../lib/priority-names';
import { describeRepeat } from '#web/lib/repeat-words';
import type { FormValues } from './todo-form-values';

/** One field's value as a person reads it ("none" for an empty one). */
function shown(field: EditedField, values: FormValues, groups: readonly Group[]): string {
  const value = values[field];
  if (field === 'groupId') {
    return groups.find((group) => group.id === value)?.name ?? t`No Group`;
  }
  if (field === 'repeat') {
    return values.repeat ? describeRepeat(values.repeat, values.dueDate) : t`none`;
  }
  if (field === 'priority') {
    return values.priority > 0 ? i18n._(PRIORITY_NAMES[values.priority]) : t`none`;
  }
  if (field === 'tags') return values.tags.length > 0 ? values.tags.join(' ') : t`none`;
  return value === null || value === '' ? t`none` : String(value);
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
  const theirsShown = shown(field, theirs, groups);
  const mineShown = shown(field, mine, groups);
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
        {/* A string, not <Trans>: a value's "<b>" stays text rather than markup. */}
        {t`Changed elsewhere while you edited: the ${words} is now “${theirsShown}”; yours is “${mineShown}”.`}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          className="min-h-11 sm:min-h-9"
          aria-describedby={sentenceId}
          onClick={() => onKeepMine(field)}
        >
          <Trans>Keep mine</Trans>
        </Button>
        <Button
          variant="secondary"
          size="sm"
          className="min-h-11 sm:min-h-9"
          aria-describedby={sentenceId}
          onClick={() => onTakeTheirs(field)}
        >
          <Trans>Take theirs</Trans>
        </Button>
      </div>
    </div>
  );
}
