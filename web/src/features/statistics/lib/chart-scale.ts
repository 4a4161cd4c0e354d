import type { DailyStatistic } from '@tally/contract';
import { DAILY_EVENTS, type DailyEvent, type StatisticsRange } from '@tally/contract/constants';

/** Bars scale to 200 px with a 5 px minimum (docs/product.md, Statistics screen). */
export const CHART_HEIGHT_PX = 200;
const MIN_BAR_HEIGHT_PX = 5;

/** Bar width and gap per range (docs/product.md, Statistics screen). */
export const BAR_GEOMETRY: Record<StatisticsRange, { width: number; gap: number }> = {
  7: { width: 24, gap: 8 },
  14: { width: 16, gap: 4 },
  30: { width: 12, gap: 2 },
};

/** The daily record's counts, stacked bottom to top in this order. */
export const SERIES = DAILY_EVENTS;
export type Series = DailyEvent;

export interface ChartBar {
  record: DailyStatistic;
  total: number;
  /** The bar's height in px. */
  height: number;
  /** Each series' share of the height, bottom to top in SERIES order. */
  segments: { series: Series; value: number; height: number }[];
}

const barTotal = (record: DailyStatistic) =>
  SERIES.reduce((sum, series) => sum + record[series], 0);

/**
 * The first N records (newest first from the API), reversed so days run oldest → newest from
 * left to right; each bar's total against the largest total is scaled to 200 px, at least 5 px.
 */
export function chartBars(records: readonly DailyStatistic[], days: number): ChartBar[] {
  const shown = records.slice(0, days).reverse();
  const max = Math.max(0, ...shown.map(barTotal));
  return shown.map((record) => {
    const total = barTotal(record);
    const height = Math.max(max > 0 ? (total / max) * CHART_HEIGHT_PX : 0, MIN_BAR_HEIGHT_PX);
    return {
      record,
      total,
      height,
      segments: SERIES.map((series) => ({
        series,
        value: record[series],
        height: total > 0 ? (record[series] / total) * height : 0,
      })),
    };
  });
}

/** The chart's drawn width for a range. */
export function chartWidth(bars: number, range: StatisticsRange): number {
  const { width, gap } = BAR_GEOMETRY[range];
  return bars > 0 ? bars * width + (bars - 1) * gap : 0;
}

/**
 * The numbers of a value axis from 0 to `max` (never above it, so bars keep their scale): the
 * smallest step of 1, 2 or 5 times a power of ten, a whole number, that leaves at most `intervals`
 * ticks above 0.
 */
export function niceTicks(max: number, intervals = 5): number[] {
  if (!(max > 0)) return [0];
  const power = 10 ** Math.floor(Math.log10(max / intervals));
  const step =
    [1, 2, 5, 10, 20]
      .map((multiple) => Math.max(1, Math.round(multiple * power)))
      .find((candidate) => Math.floor(max / candidate) <= intervals) ?? max;
  return Array.from({ length: Math.floor(max / step) + 1 }, (_, index) => index * step);
}
