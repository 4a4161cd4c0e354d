import { plural } from '@lingui/core/macro';
import { activeLocale } from '#web/lib/date-format';

const formatNumber = (value: number) => new Intl.NumberFormat(activeLocale()).format(value);

interface StatCardProps {
  label: string;
  value: string | number;
  /** "+N this week", shown only when above 0. */
  thisWeek?: number;
}

/** One figure: its label, value and, when above 0, "+N this week". */
export function StatCard({ label, value, thisWeek }: StatCardProps) {
  const shown = typeof value === 'number' ? formatNumber(value) : value;
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums dark:text-slate-100">
        {shown}
      </dd>
      {thisWeek !== undefined && thisWeek > 0 && (
        <dd className="mt-1 text-sm font-medium text-green-700 dark:text-green-300">
          {plural(thisWeek, { one: '+# this week', other: '+# this week' })}
        </dd>
      )}
    </div>
  );
}
