import { Trans, useLingui } from '@lingui/react/macro';
import type { Todo } from '@tally/contract';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { cn } from '#web/lib/cn';
import { minutesOf, type CalendarEntry } from '../lib/calendar-days';
import { OccurrenceChip, TodoChip, type ChipActions } from './TodoChip';

/** The height of an hour, in CSS pixels. */
const HOUR_PX = 44;
/** A todo without a duration is drawn this long. */
const SHORT_MINUTES = 30;
const QUARTER = 15;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

const px = (minutes: number) => (minutes * HOUR_PX) / 60;

/** Side by side where they overlap: each timed entry's lane and how many lanes its group has. */
function lanesOf(entries: readonly CalendarEntry[]) {
  const placed: {
    entry: CalendarEntry;
    start: number;
    end: number;
    lane: number;
    lanes: number;
  }[] = [];
  let group: typeof placed = [];
  let groupEnd = -1;
  for (const entry of entries) {
    const start = minutesOf(entry.todo.dueTime ?? '00:00');
    const end = start + Math.max(entry.todo.durationMinutes ?? SHORT_MINUTES, QUARTER);
    if (start >= groupEnd) group = [];
    const used = new Set(group.filter((other) => other.end > start).map((other) => other.lane));
    let lane = 0;
    while (used.has(lane)) lane += 1;
    const item = { entry, start, end, lane, lanes: 1 };
    group.push(item);
    placed.push(item);
    groupEnd = Math.max(groupEnd, end);
    const lanes = Math.max(...group.map((other) => other.lane)) + 1;
    for (const other of group) other.lanes = lanes;
  }
  return placed;
}

interface Resize {
  todo: Todo;
  minutes: number;
}

/**
 * The week (or three days, or a day) by the hour: untimed todos in a row above, timed ones as
 * blocks from their due time, as long as their duration; the bottom edge of a block drags its
 * length. Times are wall times of the user's zone, so a day is always 24 rows of hours, and "now"
 * is placed by the zone's own clock.
 */
export function TimeGrid({
  dates,
  today,
  nowMinutes,
  days,
  actions,
  onResize,
  dayName,
  time,
}: {
  dates: readonly string[];
  today: string;
  nowMinutes: number;
  days: ReadonlyMap<string, CalendarEntry[]>;
  actions: ChipActions;
  onResize: (todo: Todo, minutes: number) => void;
  dayName: (date: string) => string;
  time: (time: string) => string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const { t } = useLingui();
  const untimedLabel = (date: string) => {
    const day = dayName(date);
    return t`${day}, no time`;
  };
  const [resize, setResize] = useState<Resize | null>(null);
  useEffect(() => {
    // The working day in view first.
    if (scroller.current) scroller.current.scrollTop = px(7 * 60);
  }, []);

  const startResize = (event: PointerEvent<HTMLElement>, todo: Todo) => {
    event.stopPropagation();
    event.preventDefault();
    const { pointerId, clientY: y0 } = event;
    const from = todo.durationMinutes ?? SHORT_MINUTES;
    let minutes = from;
    const move = (e: globalThis.PointerEvent) => {
      if (e.pointerId !== pointerId) return;
      const raw = from + ((e.clientY - y0) * 60) / HOUR_PX;
      minutes = Math.min(Math.max(Math.round(raw / QUARTER) * QUARTER, QUARTER), 24 * 60);
      setResize({ todo, minutes });
    };
    const end = (e: globalThis.PointerEvent) => {
      if (e.pointerId !== pointerId) return;
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      setResize(null);
      if (e.type === 'pointerup' && minutes !== todo.durationMinutes) onResize(todo, minutes);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
  };

  const columns = { gridTemplateColumns: `3rem repeat(${dates.length}, minmax(0, 1fr))` };
  return (
    <div className="rounded-md border border-slate-200 dark:border-slate-700">
      <div className="grid border-b border-slate-200 dark:border-slate-700" style={columns}>
        <div className="text-[10px] text-slate-600 dark:text-slate-400" />
        {dates.map((date) => (
          <div
            key={date}
            aria-current={date === today ? 'date' : undefined}
            className={cn(
              'border-s border-slate-200 px-1 py-1 text-center text-xs font-semibold dark:border-slate-700',
              date === today
                ? 'text-blue-800 dark:text-blue-200'
                : 'text-slate-700 dark:text-slate-300',
            )}
          >
            {dayName(date)}
          </div>
        ))}
        <div className="self-center pe-1 text-end text-[10px] text-slate-600 dark:text-slate-400">
          <Trans>All day</Trans>
        </div>
        {dates.map((date) => (
          <ul
            key={date}
            data-drop-date={date}
            data-drop-timed="untimed"
            aria-label={untimedLabel(date)}
            className="min-h-8 space-y-0.5 border-s border-slate-200 p-0.5 dark:border-slate-700"
          >
            {(days.get(date) ?? [])
              .filter((entry) => entry.todo.dueTime === null)
              .map((entry) => (
                <li key={`${entry.todo.id}-${entry.occurrence ? 'o' : 't'}`}>
                  {entry.occurrence ? (
                    <OccurrenceChip todo={entry.todo} />
                  ) : (
                    <TodoChip todo={entry.todo} label={entry.todo.title} actions={actions} />
                  )}
                </li>
              ))}
          </ul>
        ))}
      </div>
      {/* Focusable, so the hours scroll by keyboard too. */}
      <div
        ref={scroller}
        tabIndex={0}
        role="region"
        aria-label={t`Hours`}
        className="max-h-[65vh] touch-pan-y overflow-y-auto"
      >
        <div className="grid" style={columns}>
          <div className="relative" style={{ height: px(24 * 60) }} aria-hidden="true">
            {HOURS.map((hour) => (
              <div
                key={hour}
                className="absolute end-1 -translate-y-1/2 text-[10px] text-slate-600 dark:text-slate-400"
                style={{ top: px(hour * 60) }}
              >
                {hour === 0 ? '' : time(`${String(hour).padStart(2, '0')}:00`)}
              </div>
            ))}
          </div>
          {dates.map((date) => (
            <div
              key={date}
              data-drop-date={date}
              data-drop-timed=""
              className="relative border-s border-slate-200 [--hour-line:var(--color-slate-200)] dark:border-slate-700 dark:[--hour-line:var(--color-slate-800)]"
              style={{
                height: px(24 * 60),
                backgroundImage: `repeating-linear-gradient(to bottom, transparent 0, transparent ${HOUR_PX - 1}px, var(--hour-line) ${HOUR_PX - 1}px, var(--hour-line) ${HOUR_PX}px)`,
              }}
            >
              {date === today && (
                <div
                  aria-hidden="true"
                  data-now
                  className="pointer-events-none absolute end-0 start-0 z-10 border-t-2 border-red-600"
                  style={{ top: px(nowMinutes) }}
                />
              )}
              {lanesOf((days.get(date) ?? []).filter((entry) => entry.todo.dueTime !== null)).map(
                ({ entry, start, end, lane, lanes }) => {
                  const { todo } = entry;
                  const length =
                    resize?.todo.id === todo.id && !entry.occurrence ? resize.minutes : end - start;
                  const style = {
                    top: px(start),
                    height: Math.max(px(length), 18),
                    left: `${(lane / lanes) * 100}%`,
                    width: `${100 / lanes}%`,
                  };
                  const key = `${todo.id}-${entry.occurrence ? 'o' : 't'}`;
                  if (entry.occurrence) {
                    return (
                      <OccurrenceChip key={key} todo={todo} className="absolute" style={style} />
                    );
                  }
                  const duration = todo.durationMinutes;
                  return (
                    <div key={key} className="absolute p-px" style={style} data-block={todo.id}>
                      <TodoChip
                        todo={todo}
                        label={`${todo.title}, ${time(todo.dueTime ?? '00:00')}${
                          duration ? `, ${duration} minutes` : ''
                        }`}
                        actions={actions}
                        className="h-full whitespace-normal"
                      >
                        <span className="font-semibold">{time(todo.dueTime ?? '00:00')}</span>{' '}
                        {todo.title}
                      </TodoChip>
                      <div
                        aria-hidden="true"
                        data-resize={todo.id}
                        onPointerDown={(event) => startResize(event, todo)}
                        className="absolute end-0 bottom-0 start-0 h-2 cursor-ns-resize touch-none rounded-b bg-blue-700/40 dark:bg-blue-300/40"
                      />
                    </div>
                  );
                },
              )}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
