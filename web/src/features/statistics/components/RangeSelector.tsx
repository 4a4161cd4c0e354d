import { STATISTICS_RANGES, type StatisticsRange } from '@tally/contract/constants';

interface RangeSelectorProps {
  value: StatisticsRange;
  onChange: (range: StatisticsRange) => void;
}

/** The 7 / 14 / 30 Days selector. */
export function RangeSelector({ value, onChange }: RangeSelectorProps) {
  return (
    <div
      role="group"
      aria-label="Days shown"
      className="inline-flex overflow-hidden rounded-md border border-slate-400 dark:border-slate-500"
    >
      {STATISTICS_RANGES.map((range) => (
        <button
          key={range}
          type="button"
          aria-pressed={value === range}
          onClick={() => onChange(range)}
          className={
            'min-h-9 px-3 py-1.5 text-sm font-medium not-first:border-l not-first:border-slate-400 ' +
            'dark:not-first:border-slate-500 ' +
            (value === range
              ? 'bg-blue-700 text-white dark:bg-blue-300 dark:text-slate-950'
              : 'bg-white text-slate-800 hover:bg-slate-100 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800')
          }
        >
          {range} Days
        </button>
      ))}
    </div>
  );
}
