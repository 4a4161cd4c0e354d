import { useId, useRef, useState } from 'react';
import type { Group, Todo } from '@tally/contract';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { useDeleteTodo } from '../api/delete-todo';
import { useTodos } from '../api/get-todos';
import { DeleteTodoDialog } from './DeleteTodoDialog';
import { FilterTabs, tabId } from './FilterTabs';
import { NewTodoForm } from './NewTodoForm';
import { TodoItem } from './TodoItem';
import { matchesFilter, sortNewestFirst, type TodoFilter } from '../lib/filters';

const EMPTY_TEXTS = {
  all: 'No todos yet. Add one above!',
  filtered: 'No todos in this category',
} as const;

interface TodosPageProps {
  /** The user's groups (loaded by the route), for tabs, selects and badges. */
  groups: readonly Group[];
  groupsPending: boolean;
}

/** /todos: filter tabs, the Add Todo form and the list, newest first. */
export function TodosPage({ groups, groupsPending }: TodosPageProps) {
  const todos = useTodos();
  const deleteTodo = useDeleteTodo();
  const [selectedFilter, setSelectedFilter] = useState<TodoFilter>('all');
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<Todo | null>(null);
  const addButtonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  // A group filter whose group is gone (deleted elsewhere) falls back to All.
  const filter: TodoFilter =
    typeof selectedFilter === 'number' && !groups.some((group) => group.id === selectedFilter)
      ? 'all'
      : selectedFilter;

  const header = (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-100">Todos</h1>
      <Button
        ref={addButtonRef}
        variant={formOpen ? 'secondary' : 'primary'}
        aria-expanded={formOpen}
        onClick={() => setFormOpen((open) => !open)}
      >
        {formOpen ? 'Cancel' : 'Add Todo'}
      </Button>
    </div>
  );

  const form = formOpen && (
    <div className="mb-6">
      <NewTodoForm
        groups={groups}
        defaultGroupId={typeof filter === 'number' ? filter : null}
        onCreated={() => {
          setFormOpen(false);
          addButtonRef.current?.focus();
        }}
      />
    </div>
  );

  let body;
  if (todos.isPending || groupsPending) {
    body = <LoadingText>Loading...</LoadingText>;
  } else if (todos.isError) {
    body = (
      <ErrorBanner
        message={errorMessage(todos.error, 'Load todos')}
        onRetry={() => void todos.refetch()}
      />
    );
  } else {
    const visible = sortNewestFirst(todos.data.filter((todo) => matchesFilter(todo, filter)));
    body = (
      <>
        <FilterTabs
          todos={todos.data}
          groups={groups}
          active={filter}
          onChange={setSelectedFilter}
          panelId={panelId}
        />
        <div
          id={panelId}
          role="tabpanel"
          aria-labelledby={tabId(filter)}
          tabIndex={-1}
          className="mt-4"
        >
          {visible.length === 0 ? (
            <p className="py-8 text-center text-slate-600 dark:text-slate-400">
              {filter === 'all' ? EMPTY_TEXTS.all : EMPTY_TEXTS.filtered}
            </p>
          ) : (
            <ul
              aria-label="Todos"
              className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-700 dark:border-slate-700 dark:bg-slate-900"
            >
              {visible.map((todo) => (
                <TodoItem key={todo.id} todo={todo} groups={groups} onDelete={setDeleting} />
              ))}
            </ul>
          )}
        </div>
      </>
    );
  }

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:py-8">
      {header}
      {form}
      {body}
      <DeleteTodoDialog
        todo={deleting}
        pending={deleteTodo.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={(todo) =>
          deleteTodo.mutate(todo.id, {
            onSettled: () => setDeleting(null),
          })
        }
      />
    </div>
  );
}
