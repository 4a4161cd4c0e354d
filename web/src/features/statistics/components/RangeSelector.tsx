import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { STATISTICS_RANGES, type StatisticsRange } from '@tally/contract/constants';
import { Button } from '#web/components/Button';

interface RangeSelectorProps {
  value: StatisticsRange;
  onChange: (range: StatisticsRange) => void;
}

/** The 7 / 14 / 30 Days selector. */
export function RangeSelector({ value, onChange }: RangeSelectorProps) {
  const { t } = useLingui();
  return (
    <div
      role="group"
      aria-label={t`Days shown`}
      className="inline-flex overflow-hidden rounded-md border border-slate-400 dark:border-slate-500"
    >
      {STATISTICS_RANGES.map((range) => (
        <Button
          key={range}
          variant={value === range ? 'selected' : 'outline'}
          size="sm"
          aria-pressed={value === range}
          onClick={() => onChange(range)}
          // The group draws the outer border and the corners; the buttons only a line between.
          className={
            'rounded-none border-0 not-first:border-s not-first:border-slate-400 ' +
            'dark:not-first:border-slate-500'
          }
        >
          {plural(range, { one: '# Day', other: '# Days' })}
        </Button>
      ))}
    </div>
  );
}
