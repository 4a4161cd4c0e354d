import { Trans, useLingui } from '@lingui/react/macro';
import { Suspense, lazy, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Group, Todo } from '@tally/contract';
import { Button } from '#web/components/Button';
import { Dialog } from '#web/components/Dialog';
import { LoadingText } from '#web/components/LoadingText';
import { useToggleTodo } from '../api/update-todo';
import { useLiveTodo } from '../hooks/use-live-todo';
import { findTodo } from '../lib/todo-cache';
import { AddSubtask } from './AddSubtask';
import { Markdown } from './Markdown';

const TodoEditForm = lazy(() =>
  import('./TodoEditForm').then((module) => ({ default: module.TodoEditForm })),
);

interface TodoDetailProps {
  todo: Todo;
  groups: readonly Group[];
  onClose: () => void;
}

/**
 * A todo's detail view (docs/product.md, Todos screen): every field editable, opened by the
 * row's title; the shared Dialog as a panel on the right on a desktop, a sheet from the bottom on
 * a phone (the page behind is inert; Escape or the backdrop closes it, and the focus goes back to
 * the title that opened it). Whatever way it closes, what was typed is saved first (TodoEditForm's
 * saveRef); a refusal keeps it open beside the field.
 */
export function TodoDetail({ todo: opened, groups, onClose }: TodoDetailProps) {
  // Changes made elsewhere while it is open show here (the form follows the untouched fields).
  const todo = useLiveTodo(opened);
  const toggleTodo = useToggleTodo();
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const saveRef = useRef<(() => Promise<boolean>) | null>(null);
  // What is typed is saved before the view goes (the form not loaded yet: nothing typed).
  const saved = () => saveRef.current?.() ?? Promise.resolve(true);
  const close = () =>
    void saved().then((ok) => {
      if (ok) onClose();
    });
  // The completion sends the todo as saved just now, not as the view was opened on it.
  const complete = () =>
    void saved().then((ok) => {
      if (ok) toggleTodo.mutate(findTodo(queryClient, todo.id) ?? todo, { onSuccess: onClose });
    });
  return (
    <Dialog
      open
      layout="panel"
      // A sheet on a phone, a full-height panel on the right from 640 px on.
      className={
        'mx-0 mt-auto mb-0 max-h-[92dvh] w-full max-w-none overflow-y-auto rounded-t-2xl ' +
        'bg-white p-0 text-slate-900 shadow-xl backdrop:bg-black/50 ' +
        'sm:mt-0 sm:me-0 sm:ms-auto sm:h-dvh sm:max-h-none sm:w-[28rem] sm:rounded-none ' +
        'dark:bg-slate-900 dark:text-slate-100'
      }
      title={todo.title}
      onClose={close}
      headerAction={
        <Button variant="secondary" size="sm" className="min-h-11 sm:min-h-9" onClick={close}>
          <Trans>Close</Trans>
        </Button>
      }
    >
      <Button
        variant={todo.completed ? 'secondary' : 'primary'}
        size="sm"
        className="min-h-11 sm:min-h-9"
        disabled={toggleTodo.isPending}
        onClick={complete}
      >
        {todo.completed ? t`Reopen` : t`Complete`}
      </Button>
      {todo.description && (
        // The description as the reader sees it: Markdown (decision 084), its parser loaded
        // the first time.
        <section aria-label={t`Description`}>
          <Markdown source={todo.description} />
        </section>
      )}
      <Suspense fallback={<LoadingText>{t`Loading...`}</LoadingText>}>
        <TodoEditForm todo={todo} groups={groups} onDone={onClose} saveRef={saveRef} />
      </Suspense>
      {!todo.completed && <AddSubtask parent={todo} />}
    </Dialog>
  );
}
