import { Trans } from '@lingui/react/macro';
import { memo } from 'react';
import { cn } from '#web/lib/cn';
import type { CalendarEntry } from '../lib/calendar-days';
import { OccurrenceChip, TodoChip, type ChipActions } from './TodoChip';

/** The todos a month cell shows before "+n more". */
const SHOWN = 3;

interface DayCellProps {
  date: string;
  entries: readonly CalendarEntry[] | undefined;
  inMonth: boolean;
  today: boolean;
  actions: ChipActions;
  onMore: (date: string) => void;
  dayName: string;
  time: (time: string) => string;
}

const DayCell = memo(function DayCell({
  date,
  entries = [],
  inMonth,
  today,
  actions,
  onMore,
  dayName,
  time,
}: DayCellProps) {
  const hidden = entries.length - SHOWN;
  return (
    <td
      data-drop-date={date}
      aria-current={today ? 'date' : undefined}
      className={cn(
        'h-20 border border-slate-200 p-0.5 align-top sm:h-28 sm:p-1 dark:border-slate-700',
        !inMonth && 'bg-slate-50 dark:bg-slate-900/60',
      )}
    >
      <div className="mb-0.5 flex justify-end">
        <span
          className={cn(
            'inline-flex h-6 min-w-6 items-center justify-center rounded-full px-1 text-xs',
            today
              ? 'bg-blue-700 font-bold text-white dark:bg-blue-300 dark:text-slate-950'
              : inMonth
                ? 'text-slate-800 dark:text-slate-100'
                : 'text-slate-600 dark:text-slate-400',
          )}
        >
          <span className="sr-only">{dayName} </span>
          {Number(date.slice(8))}
        </span>
      </div>
      <ul className="space-y-0.5">
        {entries.slice(0, SHOWN).map((entry) => (
          <li key={`${entry.todo.id}-${entry.occurrence ? 'o' : 't'}`}>
            {entry.occurrence ? (
              <OccurrenceChip todo={entry.todo} />
            ) : (
              <TodoChip
                todo={entry.todo}
                label={`${entry.todo.title}${entry.todo.dueTime ? `, ${time(entry.todo.dueTime)}` : ''}`}
                actions={actions}
              >
                {entry.todo.dueTime && (
                  <span className="me-1 font-semibold">{time(entry.todo.dueTime)}</span>
                )}
                {entry.todo.title}
              </TodoChip>
            )}
          </li>
        ))}
      </ul>
      {hidden > 0 && (
        <button
          type="button"
          onClick={() => onMore(date)}
          className="mt-0.5 rounded px-1 text-xs font-medium text-blue-800 hover:underline dark:text-blue-200"
        >
          <Trans>
            +{hidden} more<span className="sr-only"> on {dayName}</span>
          </Trans>
        </button>
      )}
    </td>
  );
});

/** The month as a grid of weeks; each day its todos in order, "+n more" where it is full. */
export function MonthView({
  weeks,
  month,
  today,
  days,
  actions,
  onMore,
  weekdayName,
  dayName,
  time,
}: {
  weeks: readonly string[][];
  month: string;
  today: string;
  days: ReadonlyMap<string, CalendarEntry[]>;
  actions: ChipActions;
  onMore: (date: string) => void;
  weekdayName: (date: string) => string;
  dayName: (date: string) => string;
  time: (time: string) => string;
}) {
  return (
    <table className="w-full table-fixed border-collapse">
      <thead>
        <tr>
          {(weeks[0] ?? []).map((date) => (
            <th
              key={date}
              scope="col"
              className="py-1 text-xs font-semibold text-slate-700 dark:text-slate-300"
            >
              {weekdayName(date)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week[0]}>
            {week.map((date) => (
              <DayCell
                key={date}
                date={date}
                entries={days.get(date)}
                inMonth={date.startsWith(month)}
                today={date === today}
                actions={actions}
                onMore={onMore}
                dayName={dayName(date)}
                time={time}
              />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
