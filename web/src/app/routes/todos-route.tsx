import { useLingui } from '@lingui/react/macro';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { errorMessage } from '#web/lib/api-client';
import { useGroups } from '#web/features/groups/api/get-groups';
import { TodosPage } from '#web/features/todos/components/TodosPage';
import { useDocumentTitle } from '../use-document-title';

/** Todos need the groups for tabs, selects and badges: the route brings the two together. */
export default function TodosRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Todos`);
  const groups = useGroups();
  return (
    <>
      {groups.isError && (
        <div className="mx-auto w-full max-w-3xl px-4 pt-6">
          <ErrorBanner
            message={errorMessage(groups.error, t`Load groups`)}
            onRetry={() => void groups.refetch()}
          />
        </div>
      )}
      <TodosPage groups={groups.data ?? []} groupsPending={groups.isPending} />
    </>
  );
}
