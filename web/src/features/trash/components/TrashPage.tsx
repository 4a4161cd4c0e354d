import { useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { plural, msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { TrashedTodo } from '@tally/contract';
import { formatMoment } from '#web/lib/date-format';
import { TRASH_DAYS } from '@tally/contract/constants';
import { Button } from '#web/components/Button';
import { ConfirmDialog } from '#web/components/ConfirmDialog';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { useDeleteForever } from '../api/delete-forever';
import { useEmptyTrash } from '../api/empty-trash';
import { useTrash } from '../api/get-trash';
import { useRestoreTodo } from '../api/restore-todo';

/** What a confirm dialog is asking about: one todo, or the whole trash. */
type Confirming = { todo: TrashedTodo } | 'empty' | null;

/**
 * /trash: the deleted todos, most recently deleted first, each with Restore and Delete forever
 * (confirmed), and Empty trash (confirmed). They go for good after 30 days by themselves.
 * `renderDescription` shows a description in full: the route passes the todos feature's Markdown,
 * which features may not import from each other.
 */
export function TrashPage({
  renderDescription,
}: {
  renderDescription: (description: string) => ReactNode;
}) {
  const trash = useTrash();
  const restore = useRestoreTodo();
  const deleteForever = useDeleteForever();
  const emptyTrash = useEmptyTrash();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const todos = trash.data ?? [];
  const { t } = useLingui();
  const deleteOneText = (title: string) => t`Delete "${title}" for good? This cannot be undone.`;

  const confirmText =
    confirming === 'empty'
      ? plural(todos.length, {
          one: 'Delete the # todo in the trash for good? This cannot be undone.',
          other: 'Delete all # todos in the trash for good? This cannot be undone.',
        })
      : confirming
        ? deleteOneText(confirming.todo.title)
        : '';

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:py-8">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-100">
          <Trans>Trash</Trans>
        </h1>
        {todos.length > 0 && (
          <Button variant="danger" onClick={() => setConfirming('empty')}>
            <Trans>Empty trash</Trans>
          </Button>
        )}
      </div>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        {plural(TRASH_DAYS, {
          one: 'Deleted todos stay here for # day, then they are deleted for good.',
          other: 'Deleted todos stay here for # days, then they are deleted for good.',
        })}{' '}
        <Link href="/todos" className="font-medium text-blue-700 underline dark:text-blue-300">
          <Trans>Back to Todos</Trans>
        </Link>
      </p>
      <section aria-label={t`Deleted todos`}>
        {trash.isPending ? (
          <LoadingText>{t`Loading...`}</LoadingText>
        ) : trash.isError ? (
          <ErrorBanner
            message={errorMessage(trash.error, msg`Load trash failed`)}
            onRetry={() => void trash.refetch()}
          />
        ) : todos.length === 0 ? (
          <p className="py-8 text-center text-slate-600 dark:text-slate-400">
            <Trans>The trash is empty.</Trans>
          </p>
        ) : (
          <ul
            aria-label={t`Deleted todos`}
            className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-700 dark:border-slate-700 dark:bg-slate-900"
          >
            {todos.map((todo) => {
              const { title } = todo;
              const deletedAt = formatMoment(todo.trashedAt);
              return (
                <li key={todo.id} className="flex flex-wrap items-start gap-3 px-4 py-3">
                  {/* At phone width the buttons go under the text rather than squeeze it. */}
                  <div className="min-w-0 flex-1 basis-64">
                    <p className="font-medium break-words text-slate-900 dark:text-slate-100">
                      {todo.title}
                    </p>
                    {todo.description && (
                      <div className="mt-1">{renderDescription(todo.description)}</div>
                    )}
                    <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                      <Trans>
                        Deleted <time dateTime={todo.trashedAt}>{deletedAt}</time>
                      </Trans>
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <Button
                      variant="secondary"
                      size="compact"
                      aria-label={t`Restore ${title}`}
                      disabled={restore.isPending}
                      onClick={() => restore.mutate(todo)}
                    >
                      <Trans>Restore</Trans>
                    </Button>
                    <Button
                      variant="ghostDanger"
                      size="compact"
                      aria-label={t`Delete forever ${title}`}
                      onClick={() => setConfirming({ todo })}
                    >
                      <Trans>Delete forever</Trans>
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === 'empty' ? t`Empty trash` : t`Delete forever`}
        confirmLabel={confirming === 'empty' ? t`Empty trash` : t`Delete forever`}
        pending={deleteForever.isPending || emptyTrash.isPending}
        onConfirm={() => {
          const done = { onSettled: () => setConfirming(null) };
          if (confirming === 'empty') emptyTrash.mutate(undefined, done);
          else if (confirming) deleteForever.mutate(confirming.todo.id, done);
        }}
        onCancel={() => setConfirming(null)}
      >
        <p>{confirmText}</p>
      </ConfirmDialog>
    </div>
  );
}
