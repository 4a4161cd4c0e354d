import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useId } from 'react';
import type { Group, Todo } from '@tally/contract';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { ERROR_MESSAGES, errorMessage, probeServer } from '#web/lib/api-client';
import { useTodoView, type TodoView } from '../api/get-todo-view';
import { dateOf, dayLabel } from '../lib/dates';
import { LaterDays } from './LaterDays';
import { TodoItem } from './TodoItem';

/** "Reschedule overdue", loaded when Today has overdue todos (bundle budget). */
const RescheduleOverdue = lazy(() =>
  import('./RescheduleOverdue').then((module) => ({ default: module.RescheduleOverdue })),
);

const EMPTY_TEXTS: Record<TodoView, MessageDescriptor> = {
  today: msg`Nothing due today.`,
  upcoming: msg`Nothing due in the next 7 days.`,
};

interface TodoViewListProps {
  view: TodoView;
  groups: readonly Group[];
  groupsPending: boolean;
  now: Date;
  onDelete: (todo: Todo) => void;
}

interface Day {
  key: string;
  heading: string;
  todos: Todo[];
}

/**
 * The server's answer (soonest first) in sections: Today shows "Overdue" (due before today) and
 * "Today"; Upcoming one section per day ("Today", "Tomorrow", "Mon 30 Nov").
 */
function sectionsOf(view: TodoView, todos: readonly Todo[], today: string): Day[] {
  const days: Day[] = [];
  for (const todo of todos) {
    const date = todo.dueDate ?? today;
    const key = view === 'today' && date < today ? 'overdue' : date;
    let day = days.find((d) => d.key === key);
    if (!day) {
      day = { key, heading: key === 'overdue' ? t`Overdue` : dayLabel(date, today), todos: [] };
      days.push(day);
    }
    day.todos.push(todo);
  }
  return days;
}

/** Today or Upcoming, fetched from the server by due date in the browser's zone. */
export function TodoViewList({ view, groups, groupsPending, now, onDelete }: TodoViewListProps) {
  const todos = useTodoView(view, dateOf(now));
  const idPrefix = useId();
  const { t: translate, i18n } = useLingui();
  if (todos.isPending && todos.fetchStatus === 'paused') {
    // Nothing saved to show and no server to ask: say so, rather than load for ever (the line
    // under the navigation bar says why); the list comes as soon as the server answers.
    return <ErrorBanner message={ERROR_MESSAGES.network} onRetry={() => void probeServer()} />;
  }
  if (todos.isPending || groupsPending) return <LoadingText>{translate`Loading...`}</LoadingText>;
  if (todos.isError) {
    return (
      <ErrorBanner
        message={errorMessage(todos.error, msg`Load todos failed`)}
        onRetry={() => void todos.refetch()}
      />
    );
  }
  const days = sectionsOf(view, todos.data, dateOf(now));
  // Upcoming goes on past its first week, day by day as the person scrolls.
  const later = view === 'upcoming' && (
    <LaterDays today={dateOf(now)} groups={groups} now={now} onDelete={onDelete} />
  );
  if (days.length === 0) {
    return (
      <>
        <p className="py-8 text-center text-slate-600 dark:text-slate-400">
          {i18n._(EMPTY_TEXTS[view])}
        </p>
        {later}
      </>
    );
  }
  return (
    <>
      <div className="space-y-6">
        {days.map((day) => {
          const headingId = `${idPrefix}-${day.key}`;
          return (
            <section key={day.key} aria-labelledby={headingId}>
              <div className="mb-2 flex items-center justify-between gap-2">
                <h2
                  id={headingId}
                  className={
                    day.key === 'overdue'
                      ? 'text-base font-semibold text-red-700 dark:text-red-300'
                      : 'text-base font-semibold text-slate-900 dark:text-slate-100'
                  }
                >
                  {day.heading}
                </h2>
                {day.key === 'overdue' && (
                  <Suspense fallback={null}>
                    <RescheduleOverdue overdue={day.todos} today={dateOf(now)} />
                  </Suspense>
                )}
              </div>
              <ul
                aria-labelledby={headingId}
                className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-700 dark:border-slate-700 dark:bg-slate-900"
              >
                {day.todos.map((todo) => (
                  <li key={todo.id}>
                    <TodoItem todo={todo} groups={groups} onDelete={onDelete} now={now} />
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
      {later}
    </>
  );
}
