import { Trans } from '@lingui/react/macro';
import type { Group, Todo } from '@tally/contract';
import { addDays } from '@tally/contract/dates';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Button } from '#web/components/Button';
import { useTodos } from '../api/get-todos';
import { dayLabel } from '../lib/dates';
import { TodoItem } from './TodoItem';

/** The days the server's Upcoming answers: today and the six after it. */
const UPCOMING_DAYS = 7;
/** Days added each time the end of Upcoming comes into view (or "Show more days" is pressed). */
const STEP_DAYS = 7;
const MAX_DAYS = 366;

/**
 * Upcoming past its first days: the open todos due later, a section per day, from the list the
 * browser holds. More days come as the person scrolls to the end (or presses "Show more days"),
 * up to a year ahead.
 */
export function LaterDays({
  today,
  groups,
  now,
  onDelete,
}: {
  today: string;
  groups: readonly Group[];
  now: Date;
  onDelete: (todo: Todo) => void;
}) {
  const { todos } = useTodos();
  const [days, setDays] = useState(STEP_DAYS);
  const end = useRef<HTMLDivElement>(null);
  const idPrefix = useId();
  const from = addDays(today, UPCOMING_DAYS);
  const to = addDays(today, UPCOMING_DAYS + days - 1);

  const sections = useMemo(() => {
    const byDay = new Map<string, Todo[]>();
    for (const todo of todos.data ?? []) {
      const due = todo.dueDate;
      if (todo.completed || due === null || due < from || due > to) continue;
      if (todo.startDate !== null && todo.startDate > today) continue;
      const list = byDay.get(due);
      if (list) list.push(todo);
      else byDay.set(due, [todo]);
    }
    return [...byDay]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([date, list]) => ({
        date,
        todos: list.sort((a, b) => (a.dueTime ?? '').localeCompare(b.dueTime ?? '')),
      }));
  }, [todos.data, from, to, today]);

  const more = days < MAX_DAYS;
  useEffect(() => {
    const element = end.current;
    if (!element || !more || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        setDays((shown) => Math.min(shown + STEP_DAYS, MAX_DAYS));
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [more, days]);

  return (
    <div className="mt-6 space-y-6">
      {sections.map((section) => {
        const headingId = `${idPrefix}-${section.date}`;
        return (
          <section key={section.date} aria-labelledby={headingId}>
            <h2
              id={headingId}
              className="mb-2 text-base font-semibold text-slate-900 dark:text-slate-100"
            >
              {dayLabel(section.date, today)}
            </h2>
            <ul
              aria-labelledby={headingId}
              className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-700 dark:border-slate-700 dark:bg-slate-900"
            >
              {section.todos.map((todo) => (
                <li key={todo.id}>
                  <TodoItem todo={todo} groups={groups} onDelete={onDelete} now={now} />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
      <div ref={end} className="flex justify-center">
        {more && (
          <Button
            variant="outline"
            size="sm"
            onClick={() => setDays((shown) => Math.min(shown + STEP_DAYS, MAX_DAYS))}
          >
            <Trans>Show more days</Trans>
          </Button>
        )}
      </div>
    </div>
  );
}
