import { Trans } from '@lingui/react/macro';
import type { Insights } from '@tally/contract';
import { cn } from '#web/lib/cn';

/** A group's or a tag's completions (Insights' byGroup and byTag). */
type Bar = Pick<Insights['byGroup'][number], 'name' | 'color' | 'completed'>;

/**
 * Completions per group (or tag), most first, each bar in its colour against the most completed
 * one; "No Group" or a tag without a colour is grey. Names and numbers are text, so the list reads
 * as is.
 */
export function GroupBars({
  groups,
  testId = 'group-bars',
}: {
  groups: readonly Bar[];
  testId?: string;
}) {
  const max = Math.max(0, ...groups.map((group) => group.completed));
  return (
    <ul data-testid={testId} className="space-y-3">
      {groups.map((group, index) => (
        // Names are unique among groups and among tags; "No Group" may share a group's name.
        <li key={`${index}:${group.name}`}>
          <div className="flex items-baseline justify-between gap-3 text-sm text-slate-800 dark:text-slate-200">
            <span className="min-w-0 break-words">{group.name}</span>
            <span className="shrink-0 tabular-nums">
              {group.completed}
              <span className="sr-only">
                {' '}
                <Trans>completed</Trans>
              </span>
            </span>
          </div>
          <div aria-hidden="true" className="mt-1 h-3 rounded-full bg-slate-100 dark:bg-slate-800">
            <div
              data-color={group.color ?? 'none'}
              className={cn(
                'h-full min-w-1 rounded-full',
                group.color === null && 'bg-slate-400 dark:bg-slate-500',
              )}
              style={{
                width: `${max > 0 ? (group.completed / max) * 100 : 0}%`,
                ...(group.color ? { backgroundColor: group.color } : {}),
              }}
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
