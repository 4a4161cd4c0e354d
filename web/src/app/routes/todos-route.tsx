import { lazy, Suspense } from 'react';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { errorMessage } from '#web/lib/api-client';
import { useGroups } from '#web/features/groups/api/get-groups';
import { useTodos } from '#web/features/todos/api/get-todos';
import { TodosPage } from '#web/features/todos/components/TodosPage';
import { useDocumentTitle } from '../use-document-title';

// Saved filters load their own chunk (with the filter reader) after the list.
const SavedFilterLinks = lazy(() => import('#web/features/filters/components/SavedFilterLinks'));

/** Todos need the groups for tabs, selects and badges: the route brings the two together. */
export default function TodosRoute() {
  useDocumentTitle('Todos');
  const groups = useGroups();
  const { todos } = useTodos();
  return (
    <>
      {groups.isError && (
        <div className="mx-auto w-full max-w-3xl px-4 pt-6">
          <ErrorBanner
            message={errorMessage(groups.error, 'Load groups')}
            onRetry={() => void groups.refetch()}
          />
        </div>
      )}
      <Suspense fallback={null}>
        <SavedFilterLinks todos={todos.data ?? []} groups={groups.data ?? []} />
      </Suspense>
      <TodosPage groups={groups.data ?? []} groupsPending={groups.isPending} />
    </>
  );
}
