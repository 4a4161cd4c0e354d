import { ErrorBanner } from '../../components/ErrorBanner';
import { errorMessage } from '../../lib/api-client';
import { useGroups } from '../../features/groups/api/get-groups';
import { TodosView } from '../../features/todos/components/TodosView';
import { useDocumentTitle } from '../use-document-title';

/** Todos need the groups for tabs, selects and badges: the route brings the two together. */
export default function TodosRoute() {
  useDocumentTitle('Todos');
  const groups = useGroups();
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
      <TodosView groups={groups.data ?? []} groupsPending={groups.isPending} />
    </>
  );
}
