import { Trans, useLingui } from '@lingui/react/macro';
import type { Todo } from '@tally/contract';
import { cn } from '#web/lib/cn';
import { dueLabel, isOverdue } from '../lib/dates';
import { describeRepeat } from '#web/lib/repeat-words';

function CalendarIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" fill="none">
      <rect x="2" y="3" width="12" height="11" rx="2" stroke="currentColor" strokeWidth="1.5" />
      <path d="M2 7h12M5.5 1.5v3M10.5 1.5v3" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}

/** Two arrows in a circle: the todo comes back. */
function RepeatIcon({ label }: { label: string }) {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" role="img" aria-label={label} fill="none">
      <title>{label}</title>
      <path
        d="M13 6.5A5 5 0 0 0 3.8 4.2M3 9.5a5 5 0 0 0 9.2 2.3"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinecap="round"
      />
      <path d="M3.5 1.8v2.7h2.7M12.5 14.2v-2.7H9.8" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}

/**
 * A row's due date and time ("Today 17:00", "Tomorrow", "Mon 4 Dec"), in red with the word
 * "Overdue" once past, and the repeat mark named by its rule ("Repeats every month on day 31"),
 * or by a calendar app's rule Tally cannot represent ("Custom repeat from a calendar app: …").
 */
export function TodoDue({ todo, now }: { todo: Todo; now: Date }) {
  const { t } = useLingui();
  const label = dueLabel(todo, now);
  if (!label || !todo.dueDate) return null;
  const overdue = isOverdue(todo, now);
  const { customRepeat } = todo;
  const dateTime = todo.dueTime ? `${todo.dueDate}T${todo.dueTime}` : todo.dueDate;
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 text-sm',
        overdue
          ? 'font-medium text-red-700 dark:text-red-300'
          : 'text-slate-700 dark:text-slate-300',
      )}
    >
      <CalendarIcon />
      {overdue ? (
        <span className="font-semibold">
          <Trans>Overdue:</Trans>
        </span>
      ) : (
        <span className="sr-only">
          <Trans>Due</Trans>
        </span>
      )}
      <time dateTime={dateTime}>{label}</time>
      {todo.repeat ? (
        <span className="inline-flex text-slate-700 dark:text-slate-300">
          <RepeatIcon label={describeRepeat(todo.repeat, todo.dueDate)} />
        </span>
      ) : (
        todo.customRepeat && (
          // A rule a calendar app set that Tally cannot edit: shown, kept for the app.
          <span className="inline-flex text-slate-700 dark:text-slate-300">
            <RepeatIcon label={t`Custom repeat from a calendar app: ${customRepeat}`} />
          </span>
        )
      )}
    </span>
  );
}
