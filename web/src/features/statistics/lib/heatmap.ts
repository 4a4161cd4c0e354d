import type { Insights } from '@tally/contract';
import { calendarDay, monthName } from './insights-format';

/**
 * The year heatmap's geometry (docs/product.md, Statistics screen, Insights): one column per week,
 * one row per weekday, Monday first. The API's heatmap runs oldest first from a Monday; should it
 * ever start on another day, the first column is padded so rows stay weekdays.
 */

type HeatmapDay = Insights['heatmap'][number];

interface HeatmapCell extends HeatmapDay {
  /** Position in the API's list (the roving focus moves over these). */
  index: number;
  column: number;
  /** 0 = Monday … 6 = Sunday. */
  row: number;
  level: HeatLevel;
}

/** 0 = nothing completed, 1-4 = a quarter of the busiest day each. */
export type HeatLevel = 0 | 1 | 2 | 3 | 4;
export const HEAT_LEVELS: readonly HeatLevel[] = [0, 1, 2, 3, 4];

/**
 * A day's colour step. Up to four completions on the busiest day, each count has its own step;
 * above that, step k holds the counts above (k - 1) / 4 and up to k / 4 of the busiest day.
 */
export function heatLevel(completed: number, max: number): HeatLevel {
  if (completed <= 0 || max <= 0) return 0;
  if (max <= 4) return Math.min(completed, 4) as HeatLevel;
  return Math.min(4, Math.ceil((completed / max) * 4)) as HeatLevel;
}

/** The counts each step stands for, for the legend: "0", "1", "2–3", … ("" when unused). */
export function levelRanges(max: number): string[] {
  return HEAT_LEVELS.map((level) => {
    if (level === 0) return '0';
    if (max <= 4) return level <= max ? String(level) : '';
    const low = Math.floor(((level - 1) * max) / 4) + 1;
    const high = Math.floor((level * max) / 4);
    return low >= high ? String(high) : `${low}–${high}`;
  });
}

export interface HeatmapLayout {
  cells: HeatmapCell[];
  /** Cells by row, Monday first, each in column order. */
  rows: HeatmapCell[][];
  columns: number;
  /** Month names over the columns where a month begins. */
  months: { column: number; name: string }[];
  max: number;
  total: number;
}

/** Columns a month name needs before the next one (three letters over 15-17 px columns). */
const MONTH_LABEL_COLUMNS = 3;

export function heatmapLayout(days: readonly HeatmapDay[]): HeatmapLayout {
  const offset = days[0] ? calendarDay(days[0].date).weekday : 0;
  const max = Math.max(0, ...days.map((day) => day.completed));
  const cells = days.map((day, index) => ({
    ...day,
    index,
    column: Math.floor((index + offset) / 7),
    row: (index + offset) % 7,
    level: heatLevel(day.completed, max),
  }));
  const rows = Array.from({ length: 7 }, (_, row) => cells.filter((cell) => cell.row === row));
  const columns = cells.length > 0 ? (cells[cells.length - 1]?.column ?? 0) + 1 : 0;

  // A month is named over the week holding its 1st; the first column over its own month unless
  // the next name follows too closely for both to fit.
  const months: { column: number; name: string }[] = [];
  for (const cell of cells) {
    const { day, month } = calendarDay(cell.date);
    if (cell.index === 0 || day === 1) {
      const last = months[months.length - 1];
      if (last && last.column === cell.column) last.name = monthName(month);
      else months.push({ column: cell.column, name: monthName(month) });
    }
  }
  if (
    months.length > 1 &&
    (months[1]?.column ?? 0) - (months[0]?.column ?? 0) < MONTH_LABEL_COLUMNS
  )
    months.shift();

  return {
    cells,
    rows,
    columns,
    months,
    max,
    total: days.reduce((sum, day) => sum + day.completed, 0),
  };
}

/**
 * Where a key moves the heatmap's focus from `index` (of `length` days), or null for other keys:
 * up and down by a day (on to the next week past Sunday), left and right by a week, Home and End
 * to the first and last day. A move that would leave the year stays where it is, as in a grid.
 */
export function moveFocus(key: string, index: number, length: number): number | null {
  const steps: Record<string, number> = {
    ArrowUp: -1,
    ArrowDown: 1,
    ArrowLeft: -7,
    ArrowRight: 7,
  };
  if (length === 0) return null;
  if (key === 'Home') return 0;
  if (key === 'End') return length - 1;
  const step = steps[key];
  if (step === undefined) return null;
  const next = index + step;
  return next < 0 || next >= length ? index : next;
}
