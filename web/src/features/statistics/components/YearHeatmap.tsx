import { Trans, useLingui } from '@lingui/react/macro';
import {
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
} from 'react';
import type { Insights } from '@tally/contract';
import { cn } from '#web/lib/cn';
import { HEAT_LEVELS, heatmapLayout, levelRanges, moveFocus, type HeatLevel } from '../lib/heatmap';
import { dayLabel, weekdayNames } from '../lib/insights-format';

/**
 * Colour steps that read in both themes: from the card's own grey (nothing) to a strong green,
 * darker with more in the light theme and brighter with more in the dark one.
 */
const LEVEL_CLASSES: Record<HeatLevel, string> = {
  0: 'bg-slate-100 dark:bg-slate-800',
  1: 'bg-emerald-200 dark:bg-emerald-900',
  2: 'bg-emerald-400 dark:bg-emerald-700',
  3: 'bg-emerald-600 dark:bg-emerald-500',
  4: 'bg-emerald-800 dark:bg-emerald-300',
};

const CELL_CLASS =
  'size-(--cell) shrink-0 rounded-[3px] outline-1 -outline-offset-1 outline-black/10 dark:outline-white/10';

/** Weekday names shown beside the rows (all seven would crowd 12 px rows). */
const SHOWN_WEEKDAYS = new Set([0, 2, 4]);

/** The offset of a column from the line's start: cells of --cell px and 3 px gaps. */
const columnOffset = (column: number) => `calc(${column} * (var(--cell) + 3px))`;

const MIRRORED_KEYS: Readonly<Record<string, string>> = {
  ArrowLeft: 'ArrowRight',
  ArrowRight: 'ArrowLeft',
};

interface YearHeatmapProps {
  days: Insights['heatmap'];
  /** Names the grid, e.g. "Completions per day, last 52 weeks". */
  label: string;
}

/**
 * GitHub-style year of completions: a column per week, a row per weekday (Monday first), a
 * colour step per day. The grid is one tab stop (roving tabindex, today first): arrows move by
 * day and week, Home and End to the first and last day. On narrow screens it scrolls inside its
 * own box, opened at the newest week; the weekday names stay in view.
 */
export function YearHeatmap({ days, label }: YearHeatmapProps) {
  const layout = useMemo(() => heatmapLayout(days), [days]);
  const [active, setActive] = useState(days.length - 1);
  const current = Math.max(0, Math.min(active, days.length - 1));
  const cells = useRef<(HTMLDivElement | null)[]>([]);
  const scroller = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const ranges = levelRanges(layout.max);
  const { t } = useLingui();
  const weekdays = weekdayNames('short');

  // Open at the newest week (the end of the line: the right, or the left in right-to-left).
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const rightToLeft = getComputedStyle(box).direction === 'rtl';
    box.scrollLeft = rightToLeft ? -box.scrollWidth : box.scrollWidth;
  }, [days.length]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Right to left, the weeks run leftwards: the left arrow goes on to the next week.
    const rightToLeft = getComputedStyle(event.currentTarget).direction === 'rtl';
    const key = rightToLeft ? (MIRRORED_KEYS[event.key] ?? event.key) : event.key;
    const next = moveFocus(key, current, days.length);
    if (next === null) return;
    event.preventDefault();
    setActive(next);
    cells.current[next]?.focus();
  };

  const activeDay = days[current];

  return (
    <div className="[--cell:12px] sm:[--cell:14px]">
      <div
        ref={scroller}
        data-testid="heatmap-scroller"
        className="overflow-x-auto scroll-ps-12 pb-2"
      >
        <div className="w-max pe-1">
          <div aria-hidden="true" className="flex h-5 text-xs text-slate-600 dark:text-slate-400">
            <div className="sticky start-0 z-10 w-9 shrink-0 bg-white dark:bg-slate-900" />
            <div className="relative" style={{ width: columnOffset(layout.columns) }}>
              {layout.months.map((month) => (
                <span
                  key={`${month.column}-${month.name}`}
                  className="absolute top-0 whitespace-nowrap"
                  style={{ insetInlineStart: columnOffset(month.column) }}
                >
                  {month.name}
                </span>
              ))}
            </div>
          </div>
          <div
            role="grid"
            aria-label={label}
            aria-describedby={hintId}
            onKeyDown={onKeyDown}
            className="flex flex-col gap-[3px]"
          >
            {layout.rows.map((row, weekday) => (
              <div role="row" key={weekday} className="flex gap-[3px]">
                <div
                  aria-hidden="true"
                  className="sticky start-0 z-10 w-9 shrink-0 bg-white pe-1 text-xs leading-(--cell) text-slate-600 dark:bg-slate-900 dark:text-slate-400"
                >
                  {SHOWN_WEEKDAYS.has(weekday) ? weekdays[weekday] : ''}
                </div>
                {row.map((cell, position) => {
                  const name = dayLabel(cell.date, cell.completed);
                  const style: CSSProperties | undefined =
                    position === 0 && cell.column > 0
                      ? { marginInlineStart: columnOffset(cell.column) }
                      : undefined;
                  return (
                    <div
                      key={cell.date}
                      ref={(element) => {
                        cells.current[cell.index] = element;
                      }}
                      role="gridcell"
                      aria-label={name}
                      title={name}
                      tabIndex={cell.index === current ? 0 : -1}
                      data-date={cell.date}
                      data-level={cell.level}
                      onFocus={() => setActive(cell.index)}
                      className={cn(
                        CELL_CLASS,
                        LEVEL_CLASSES[cell.level],
                        'focus-visible:outline-2 focus-visible:outline-offset-1',
                        'focus-visible:outline-blue-700 dark:focus-visible:outline-blue-300',
                      )}
                      style={style}
                    />
                  );
                })}
              </div>
            ))}
          </div>
        </div>
      </div>

      <div className="mt-2 flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-xs text-slate-700 dark:text-slate-300">
        <p data-testid="heatmap-active-day" className="font-medium">
          {activeDay ? dayLabel(activeDay.date, activeDay.completed) : ''}
        </p>
        <ul
          aria-label={t`Legend: completed per day`}
          className="flex flex-wrap items-center gap-x-3 gap-y-1"
        >
          {HEAT_LEVELS.filter((level) => ranges[level] !== '').map((level) => (
            <li key={level} className="flex items-center gap-1">
              <span aria-hidden="true" className={cn(CELL_CLASS, LEVEL_CLASSES[level])} />
              {ranges[level]}
            </li>
          ))}
        </ul>
      </div>
      <p id={hintId} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        <Trans>Arrow keys move by day and week; Home and End go to the first and last day.</Trans>
      </p>
    </div>
  );
}
