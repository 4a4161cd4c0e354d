import { plural } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import type { BulkBody, Todo } from '@tally/contract';
import { BULK_IDS_MAX } from '@tally/contract/constants';
import { Button } from '#web/components/Button';
import { offerUndo } from '#web/lib/undo';
import { undoCallsOf, useBulkTodos } from '../api/bulk-todos';

interface RescheduleOverdueProps {
  /** The overdue todos Today shows. */
  overdue: readonly Todo[];
  /** Today's date, YYYY-MM-DD. */
  today: string;
}

/**
 * "Reschedule overdue" beside Today's Overdue heading: every overdue todo to today in one call
 * (with the versions shown, so one changed elsewhere meanwhile changes none), keeping times and
 * repeats; Undo puts each back on its own date.
 */
export function RescheduleOverdue({ overdue, today }: RescheduleOverdueProps) {
  const { mutation, undo } = useBulkTodos();
  const reschedule = () => {
    const before = new Map(overdue.slice(0, BULK_IDS_MAX).map((todo) => [todo.id, todo]));
    const versions = Object.fromEntries(
      [...before.values()]
        .filter((todo) => todo.id > 0)
        .map((todo) => [String(todo.id), todo.version]),
    );
    const body: BulkBody = { ids: [...before.keys()], action: 'due', dueDate: today, versions };
    mutation.mutate(body, {
      onSuccess: (changed) => {
        const calls = undoCallsOf(body, changed, before);
        if (calls.length === 0) return;
        offerUndo(
          plural(changed.length, {
            one: '# overdue todo moved to today',
            other: '# overdue todos moved to today',
          }),
          () => undo(calls),
        );
      },
    });
  };
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={mutation.isPending}
      onClick={reschedule}
      className="min-h-11 sm:min-h-9"
    >
      <Trans>Reschedule overdue</Trans>
    </Button>
  );
}
