import type { Insights } from '@tally/contract';
import { cn } from '#web/lib/cn';

/**
 * Completions per group, most first, each bar in its group's colour against the most completed
 * group; "No Group" (no colour) is grey. Names and numbers are text, so the list reads as is.
 */
export function GroupBars({ groups }: { groups: Insights['byGroup'] }) {
  const max = Math.max(0, ...groups.map((group) => group.completed));
  return (
    <ul data-testid="group-bars" className="space-y-3">
      {groups.map((group) => (
        <li key={group.groupId ?? 'none'}>
          <div className="flex items-baseline justify-between gap-3 text-sm text-slate-800 dark:text-slate-200">
            <span className="min-w-0 break-words">{group.name}</span>
            <span className="shrink-0 tabular-nums">
              {group.completed}
              <span className="sr-only"> completed</span>
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
