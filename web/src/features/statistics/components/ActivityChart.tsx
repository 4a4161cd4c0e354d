import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { DailyStatistic } from '@tally/contract';
import type { StatisticsRange } from '@tally/contract/constants';
import { activeLocale, formatDayMonth, relativeDay } from '#web/lib/date-format';
import { daysAgo } from '#web/lib/format';
import {
  BAR_GEOMETRY,
  CHART_HEIGHT_PX,
  SERIES,
  chartBars,
  chartWidth,
  niceTicks,
  type Series,
} from '../lib/chart-scale';

const SERIES_META: Record<Series, { label: MessageDescriptor; color: string }> = {
  todosCreated: { label: msg`Todos created`, color: 'bg-blue-600 dark:bg-blue-400' },
  todosCompleted: { label: msg`Todos completed`, color: 'bg-emerald-600 dark:bg-emerald-400' },
  groupsCreated: { label: msg`Groups created`, color: 'bg-amber-600 dark:bg-amber-400' },
  logins: { label: msg`Logins`, color: 'bg-violet-600 dark:bg-violet-400' },
};

/** "3 todos created", "1 login": a whole phrase per series and plural form. */
function seriesCount(series: Series, value: number): string {
  switch (series) {
    case 'todosCreated':
      return plural(value, { one: '# todo created', other: '# todos created' });
    case 'todosCompleted':
      return plural(value, { one: '# todo completed', other: '# todos completed' });
    case 'groupsCreated':
      return plural(value, { one: '# group created', other: '# groups created' });
    case 'logins':
      return plural(value, { one: '# login', other: '# logins' });
  }
}

/**
 * "Yesterday: 3 todos created, 1 todo completed, 0 groups created, 1 login" (Today, Yesterday,
 * else the day in the browser's locale: lib/date-format).
 */
function describeDay(record: DailyStatistic, today: string): string {
  const day = relativeDay(record.date, today);
  const counts = new Intl.ListFormat(activeLocale(), { style: 'short', type: 'unit' }).format(
    SERIES.map((series) => seriesCount(series, record[series])),
  );
  return t`${day}: ${counts}`;
}

interface ActivityChartProps {
  records: readonly DailyStatistic[];
  range: StatisticsRange;
}

/** The stacked daily bar chart (docs/product.md, Statistics screen), drawn with plain elements. */
export function ActivityChart({ records, range }: ActivityChartProps) {
  const bars = chartBars(records, range);
  const { i18n } = useLingui();
  const today = daysAgo(0);
  const { width, gap } = BAR_GEOMETRY[range];
  const first = bars[0];
  const last = bars[bars.length - 1];
  // The value axis: a bar's height is its total against the largest total, so the tick of value
  // v sits at v / max of the 200 px (docs/product.md, Statistics screen).
  const max = Math.max(0, ...bars.map((bar) => bar.total));
  const ticks = niceTicks(max).map((value) => ({
    value,
    bottom: max > 0 ? (value / max) * CHART_HEIGHT_PX : 0,
  }));

  return (
    <figure>
      {max === 0 && (
        <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">
          {plural(range, {
            one: 'Nothing yet in the last # day: todos you create or complete show here.',
            other: 'Nothing yet in the last # days: todos you create or complete show here.',
          })}
        </p>
      )}
      <div
        tabIndex={0}
        role="region"
        aria-label={plural(range, {
          one: 'Daily activity, last # day',
          other: 'Daily activity, last # days',
        })}
        className="overflow-x-auto rounded-md pt-2 pb-2"
      >
        {/* The bars share the card's width, each at least its range's width (docs/product.md,
            Statistics screen): a phone scrolls a long range, a desktop fills the card. */}
        <div
          className="flex w-full gap-2"
          style={{ minWidth: chartWidth(bars.length, range) + 36 }}
        >
          {/* The numbers only repeat what each bar's name says exactly: for the eye. They stay in
              view while a long range scrolls. */}
          <div
            aria-hidden="true"
            data-testid="activity-axis"
            className="sticky start-0 z-10 w-7 shrink-0 bg-white text-end text-xs text-slate-600 tabular-nums dark:bg-slate-900 dark:text-slate-400"
            style={{ height: CHART_HEIGHT_PX }}
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
                data-testid="activity-bars"
                className="relative flex items-end justify-between border-b border-slate-400 dark:border-slate-500"
                style={{ height: CHART_HEIGHT_PX, gap }}
              >
                {bars.map((bar) => {
                  const label = describeDay(bar.record, today);
                  return (
                    <div
                      key={bar.record.date}
                      role="img"
                      aria-label={label}
                      title={label}
                      data-height={bar.height}
                      className="flex max-w-16 min-w-0 flex-1 flex-col-reverse overflow-hidden rounded-t-sm"
                      style={{ minWidth: width, height: bar.height }}
                    >
                      {bar.total === 0 ? (
                        <div className="h-full bg-slate-300 dark:bg-slate-600" />
                      ) : (
                        bar.segments
                          .filter((segment) => segment.value > 0)
                          .map((segment) => (
                            <div
                              key={segment.series}
                              className={SERIES_META[segment.series].color}
                              style={{ height: segment.height }}
                            />
                          ))
                      )}
                    </div>
                  );
                })}
              </div>
            </div>
            {first && last && (
              <div className="mt-1 flex justify-between gap-2 text-xs text-slate-600 dark:text-slate-400">
                <span>{formatDayMonth(first.record.date)}</span>
                {bars.length > 1 && <span>{formatDayMonth(last.record.date)}</span>}
              </div>
            )}
          </div>
        </div>
      </div>
      <figcaption>
        <ul
          aria-label={i18n._(msg`Legend`)}
          className="mt-4 flex flex-wrap gap-x-5 gap-y-2 text-sm"
        >
          {SERIES.map((series) => (
            <li key={series} className="flex items-center gap-2 text-slate-700 dark:text-slate-300">
              <span
                aria-hidden="true"
                className={`h-3 w-3 rounded-sm ${SERIES_META[series].color}`}
              />
              {i18n._(SERIES_META[series].label)}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
