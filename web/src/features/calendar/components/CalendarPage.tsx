import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { PatchTodoBody, Todo } from '@tally/contract';
import { addDays } from '@tally/contract/dates';
import {
  useCallback,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type PointerEvent,
} from 'react';
import { Button } from '#web/components/Button';
import { Switch } from '#web/components/Switch';
import { cn } from '#web/lib/cn';
import { activeLocale, formatDay, formatTime } from '#web/lib/date-format';
import {
  addMonths,
  daysBetween,
  entriesByDay,
  firstDayOfWeek,
  indexByDay,
  monthWeeks,
  shiftedRepeat,
  startOfWeek,
  timeOfMinutes,
  wallClock,
} from '../lib/calendar-days';
import { useDrag, type DropTarget } from '../lib/use-drag';
import { MonthView } from './MonthView';
import { MoveDialog, RepeatChoiceDialog } from './MoveDialog';
import { TimeGrid } from './TimeGrid';
import { TodoChip, type ChipActions } from './TodoChip';

type View = 'month' | 'week' | 'three' | 'day';

const VIEW_NAMES: Record<View, MessageDescriptor> = {
  month: msg`Month`,
  week: msg`Week`,
  three: msg`3 days`,
  day: msg`Day`,
};

/** Phones get a day and three days instead of the week, which does not fit their width. */
const PHONE = '(max-width: 639px)';
const UNSCHEDULED_SHOWN = 50;
/** How far a finger goes sideways before the days turn. */
const SWIPE_PX = 60;

/**
 * Whether the window is phone-wide, following it as it turns or resizes. An external store, not
 * state set from an effect: a change between the first render and the effect is not missed.
 */
function usePhone(): boolean {
  return useSyncExternalStore(subscribeToPhone, () => window.matchMedia(PHONE).matches);
}

function subscribeToPhone(onChange: () => void) {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The weekday's and the month's names in the app's language (lib/date-format's locale). */
const weekdayFormat = (locale: string | undefined) =>
  new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
const monthFormat = (locale: string | undefined) =>
  new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
const utcDay = (date: string) => new Date(`${date}T00:00:00Z`);

/** A repeating todo dropped elsewhere, waiting for "this one / all". */
interface PendingMove {
  todo: Todo;
  patch: PatchTodoBody;
}

/**
 * /calendar: the todos by due date in a month, a week (three days or a day on phones), with the
 * todos without a date beside it to drag in. A todo moves by dragging it (mouse, pen or finger)
 * or with "Move to…" (its button); every move is one save with the todo's version and an Undo.
 */
export function CalendarPage({
  todos,
  loading,
  weekStart,
  zone,
  now,
  onChange,
}: {
  todos: readonly Todo[];
  loading: boolean;
  /** The account's first day of the week (0 = Sunday), or null for the locale's. */
  weekStart: number | null;
  /** The user's IANA zone: where "today" and "now" are. */
  zone: string;
  now: Date;
  onChange: (todo: Todo, patch: PatchTodoBody) => void;
}) {
  const phone = usePhone();
  const { t, i18n } = useLingui();
  const locale = activeLocale();
  const wall = wallClock(now, zone);
  const today = wall.date;
  const first = firstDayOfWeek(weekStart, locale ?? navigator.language);
  const [view, setView] = useState<View>(phone ? 'three' : 'month');
  const [anchor, setAnchor] = useState(today);
  const [showCompleted, setShowCompleted] = useState(false);
  const [moving, setMoving] = useState<Todo | null>(null);
  const [pending, setPending] = useState<PendingMove | null>(null);
  const shown: View =
    phone && view === 'week' ? 'three' : !phone && view === 'three' ? 'week' : view;

  const month = anchor.slice(0, 7);
  const weeks = useMemo(() => monthWeeks(month, first), [month, first]);
  const dates = useMemo(() => {
    if (shown === 'week') {
      const start = startOfWeek(anchor, first);
      return Array.from({ length: 7 }, (_, i) => addDays(start, i));
    }
    return Array.from({ length: shown === 'three' ? 3 : 1 }, (_, i) => addDays(anchor, i));
  }, [shown, anchor, first]);
  const from = shown === 'month' ? (weeks[0]?.[0] ?? anchor) : (dates[0] ?? anchor);
  const to = shown === 'month' ? (weeks.at(-1)?.[6] ?? anchor) : (dates.at(-1) ?? anchor);
  const index = useMemo(() => indexByDay(todos), [todos]);
  const days = useMemo(
    () => entriesByDay(index, from, to, showCompleted),
    [index, from, to, showCompleted],
  );
  const { unscheduled } = index;

  const step = (direction: 1 | -1) => {
    if (shown === 'month') setAnchor(`${addMonths(month, direction)}-01`);
    else setAnchor(addDays(anchor, direction * (shown === 'week' ? 7 : shown === 'three' ? 3 : 1)));
  };

  const move = useCallback(
    (todo: Todo, patch: PatchTodoBody) => {
      if (todo.repeat && patch.dueDate) setPending({ todo, patch });
      else onChange(todo, patch);
    },
    [onChange],
  );

  const onDrop = useCallback(
    (todo: Todo, target: DropTarget) => {
      const patch: PatchTodoBody = {};
      if (target.date !== todo.dueDate) patch.dueDate = target.date;
      if (target.date !== null && target.minutes !== undefined) {
        const dueTime = target.minutes === null ? null : timeOfMinutes(target.minutes);
        if (dueTime !== todo.dueTime) patch.dueTime = dueTime;
      }
      if (Object.keys(patch).length > 0) move(todo, patch);
    },
    [move],
  );
  const { drag, start, justDragged } = useDrag(onDrop);

  const actions: ChipActions = useMemo(
    () => ({
      onOpen: (todo) => {
        if (!justDragged.current) setMoving(todo);
      },
      onDragStart: start,
      onKeyResize: (todo, minutes) => {
        const next = Math.min(Math.max((todo.durationMinutes ?? 30) + minutes, 15), 24 * 60);
        if (next !== todo.durationMinutes) onChange(todo, { durationMinutes: next });
      },
    }),
    [start, justDragged, onChange],
  );

  const swipe = useRef<{ x: number; y: number; id: number } | null>(null);
  const onSwipeStart = (event: PointerEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    if (event.pointerType !== 'touch' || target.closest('[data-todo-id],[data-resize]')) return;
    swipe.current = { x: event.clientX, y: event.clientY, id: event.pointerId };
  };
  const onSwipeEnd = (event: PointerEvent<HTMLElement>) => {
    const begun = swipe.current;
    swipe.current = null;
    if (!begun || begun.id !== event.pointerId) return;
    const dx = event.clientX - begun.x;
    const dy = event.clientY - begun.y;
    if (Math.abs(dx) >= SWIPE_PX && Math.abs(dy) < Math.abs(dx) / 2) step(dx < 0 ? 1 : -1);
  };

  const time = useCallback((value: string) => formatTime(value), []);
  const dayName = useCallback((date: string) => formatDay(date, today), [today]);
  const weekdayName = useCallback(
    (date: string) => weekdayFormat(locale).format(utcDay(date)),
    [locale],
  );
  const title =
    shown === 'month'
      ? monthFormat(locale).format(utcDay(`${month}-01`))
      : dates.length === 1
        ? dayName(anchor)
        : `${dayName(dates[0] ?? anchor)} – ${dayName(dates.at(-1) ?? anchor)}`;
  const views: View[] = phone ? ['month', 'three', 'day'] : ['month', 'week', 'day'];

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6">
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <h1
          className="me-auto text-2xl font-bold text-slate-900 dark:text-white"
          aria-live="polite"
        >
          {title}
        </h1>
        <div role="group" aria-label={t`View`} className="flex gap-1">
          {views.map((name) => (
            <Button
              key={name}
              size="sm"
              variant={shown === name ? 'selected' : 'outline'}
              aria-pressed={shown === name}
              onClick={() => setView(name)}
            >
              {i18n._(VIEW_NAMES[name])}
            </Button>
          ))}
        </div>
        <div className="flex gap-1">
          <Button size="sm" variant="outline" onClick={() => step(-1)} aria-label={t`Previous`}>
            ‹
          </Button>
          <Button size="sm" variant="outline" onClick={() => setAnchor(today)}>
            <Trans>Today</Trans>
          </Button>
          <Button size="sm" variant="outline" onClick={() => step(1)} aria-label={t`Next`}>
            ›
          </Button>
        </div>
        <Switch on={showCompleted} onChange={setShowCompleted} label={t`Show completed`} />
      </div>
      {loading && (
        <p role="status" className="mb-2 text-sm text-slate-700 dark:text-slate-300">
          <Trans>Loading todos...</Trans>
        </p>
      )}
      <div className="flex flex-col gap-4 lg:flex-row">
        <section
          aria-label={t`Calendar`}
          className="min-w-0 flex-1 touch-pan-y"
          onPointerDown={onSwipeStart}
          onPointerUp={onSwipeEnd}
          onPointerCancel={() => {
            swipe.current = null;
          }}
        >
          {shown === 'month' ? (
            <MonthView
              weeks={weeks}
              month={month}
              today={today}
              days={days}
              actions={actions}
              onMore={(date) => {
                setAnchor(date);
                setView('day');
              }}
              weekdayName={weekdayName}
              dayName={dayName}
              time={time}
            />
          ) : (
            <TimeGrid
              dates={dates}
              today={today}
              nowMinutes={wall.minutes}
              days={days}
              actions={actions}
              onResize={(todo, minutes) => onChange(todo, { durationMinutes: minutes })}
              dayName={dayName}
              time={time}
            />
          )}
        </section>
        <section
          aria-labelledby="unscheduled-heading"
          data-drop-date=""
          className="rounded-md border border-slate-200 p-2 lg:w-60 dark:border-slate-700"
        >
          <h2
            id="unscheduled-heading"
            className="mb-1 text-sm font-semibold text-slate-900 dark:text-white"
          >
            <Trans>Unscheduled</Trans>
          </h2>
          {unscheduled.length === 0 ? (
            <p className="text-xs text-slate-700 dark:text-slate-300">
              <Trans>Every open todo has a date.</Trans>
            </p>
          ) : (
            <ul className="space-y-1">
              {unscheduled.slice(0, UNSCHEDULED_SHOWN).map((todo) => (
                <li key={todo.id}>
                  <TodoChip todo={todo} label={todo.title} actions={actions} className="py-1" />
                </li>
              ))}
            </ul>
          )}
          {unscheduled.length > UNSCHEDULED_SHOWN && (
            <p className="mt-1 text-xs text-slate-700 dark:text-slate-300">
              {plural(unscheduled.length - UNSCHEDULED_SHOWN, {
                one: 'And # more in Todos.',
                other: 'And # more in Todos.',
              })}
            </p>
          )}
        </section>
      </div>
      {drag && (
        <div
          aria-hidden="true"
          className={cn(
            'pointer-events-none fixed z-50 max-w-48 -translate-x-1/2 -translate-y-1/2 truncate rounded bg-blue-700 px-2 py-1 text-xs text-white shadow-lg',
            !drag.target && 'opacity-60',
          )}
          style={{ left: drag.x, top: drag.y }}
        >
          {drag.todo.title}
          {drag.target?.date && ` → ${dayName(drag.target.date)}`}
          {typeof drag.target?.minutes === 'number' &&
            ` ${time(timeOfMinutes(drag.target.minutes))}`}
        </div>
      )}
      {moving && <MoveDialog todo={moving} onClose={() => setMoving(null)} onMove={move} />}
      {pending && (
        <RepeatChoiceDialog
          todo={pending.todo}
          onClose={() => setPending(null)}
          onChoose={(all) => {
            const { todo, patch } = pending;
            setPending(null);
            const moved =
              patch.dueDate && todo.dueDate ? daysBetween(todo.dueDate, patch.dueDate) : 0;
            onChange(
              todo,
              all && todo.repeat && moved !== 0
                ? { ...patch, repeat: shiftedRepeat(todo.repeat, moved) }
                : patch,
            );
          }}
        />
      )}
    </div>
  );
}
