import { useLingui } from '@lingui/react/macro';
import { cn } from '#web/lib/cn';
import { niceTicks } from '../lib/chart-scale';

interface ColumnChartProps {
  values: readonly number[];
  /** Under each column ('' for none where they would crowd). */
  axisLabels: readonly string[];
  /** Each column's name for screen readers and tooltips, e.g. "Monday". */
  names: readonly string[];
  /** The gap between columns in px. */
  gap: number;
  testId?: string;
}

const HEIGHT_PX = 140;

/**
 * Columns of completions (by weekday, by hour) that share the card's width, over a value axis
 * from 0. Each column is an image named "Monday: 3 completed"; the axis is for the eye only.
 */
export function ColumnChart({ values, axisLabels, names, gap, testId }: ColumnChartProps) {
  const { t } = useLingui();
  const max = Math.max(0, ...values);
  const ticks = niceTicks(max, 4).map((value) => ({
    value,
    bottom: max > 0 ? (value / max) * HEIGHT_PX : 0,
  }));
  return (
    <div className="flex gap-2 pt-2">
      <div
        aria-hidden="true"
        className="relative w-6 shrink-0 text-end text-xs text-slate-600 tabular-nums dark:text-slate-400"
        style={{ height: HEIGHT_PX }}
      >
        {ticks.map((tick) => (
          <span
            key={tick.value}
            className="absolute end-0 translate-y-1/2 leading-none"
            style={{ bottom: tick.bottom }}
          >
            {tick.value}
          </span>
        ))}
      </div>
      <div className="min-w-0 flex-1">
        <div className="relative">
          <div aria-hidden="true" className="pointer-events-none absolute inset-0">
            {ticks
              .filter((tick) => tick.value > 0)
              .map((tick) => (
                <div
                  key={tick.value}
                  className="absolute inset-x-0 border-t border-dashed border-slate-200 dark:border-slate-700"
                  style={{ bottom: tick.bottom }}
                />
              ))}
          </div>
          <div
            data-testid={testId}
            className="relative flex items-end border-b border-slate-400 dark:border-slate-500"
            style={{ height: HEIGHT_PX, gap }}
          >
            {values.map((value, index) => {
              const column = names[index] ?? String(index);
              const name = t`${column}: ${value} completed`;
              return (
                <div
                  key={index}
                  role="img"
                  aria-label={name}
                  title={name}
                  className={cn(
                    'min-w-0 flex-1 rounded-t-sm bg-emerald-600 dark:bg-emerald-400',
                    value > 0 && 'min-h-0.5',
                  )}
                  style={{ height: max > 0 ? (value / max) * HEIGHT_PX : 0 }}
                />
              );
            })}
          </div>
        </div>
        <div
          aria-hidden="true"
          className="mt-1 flex text-xs text-slate-600 dark:text-slate-400"
          style={{ gap }}
        >
          {axisLabels.map((label, index) => (
            <span key={index} className="min-w-0 flex-1 text-center whitespace-nowrap">
              {label}
            </span>
          ))}
        </div>
      </div>
    </div>
  );
}
