import { msg } from '@lingui/core/macro';
import type { PatchTodoBody, Todo } from '@tally/contract';
import { useCallback } from 'react';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { errorMessage } from '#web/lib/api-client';
import { useAccount } from '#web/features/account/api/get-account';
import { CalendarPage } from '#web/features/calendar/components/CalendarPage';
import { useTodos } from '#web/features/todos/api/get-todos';
import { useUpdateTodo } from '#web/features/todos/api/update-todo';
import { useNow } from '#web/features/todos/hooks/use-now';
import { useDocumentTitle } from '../use-document-title';

const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The calendar shows the todos the list holds and moves them with the list's own save (If-Match
 * with the todo's version, and the Undo toast naming what changed), in the account's zone and
 * with its first day of the week (the browser's and the locale's until the account has them).
 */
export default function CalendarRoute() {
  useDocumentTitle('Calendar');
  const { todos, complete } = useTodos();
  const update = useUpdateTodo();
  const now = useNow();
  const account = useAccount();
  const { mutate } = update;
  const onChange = useCallback(
    (todo: Todo, body: PatchTodoBody) => mutate({ todo, body }),
    [mutate],
  );
  return (
    <>
      {todos.isError && (
        <div className="mx-auto w-full max-w-3xl px-4 pt-6">
          <ErrorBanner
            message={errorMessage(todos.error, msg`Load todos failed`)}
            onRetry={() => void todos.refetch()}
          />
        </div>
      )}
      <CalendarPage
        todos={todos.data ?? []}
        loading={!complete && !todos.isError}
        weekStart={account.data?.weekStart ?? null}
        zone={account.data?.timeZone ?? browserZone}
        now={now}
        onChange={onChange}
      />
    </>
  );
}
