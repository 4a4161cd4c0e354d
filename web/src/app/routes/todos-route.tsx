import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useMemo } from 'react';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { errorMessage } from '#web/lib/api-client';
import { DEFAULT_GROUP_COLOR } from '@tally/contract/constants';
import { useCreateGroup } from '#web/features/groups/api/create-group';
import { useGroups } from '#web/features/groups/api/get-groups';
import { useTags } from '#web/features/tags/api/tags';
import { useTodos } from '#web/features/todos/api/get-todos';
import { TodosPage } from '#web/features/todos/components/TodosPage';
import { useDocumentTitle } from '../use-document-title';

// Saved filters load their own chunk (with the filter reader) after the list.
const SavedFilterLinks = lazy(() => import('#web/features/filters/components/SavedFilterLinks'));

/**
 * Todos need the groups for tabs, selects and badges, and quick add the tags it suggests and a way
 * to create a group it names: the route brings them together.
 */
export default function TodosRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Todos`);
  const groups = useGroups();
  const { todos } = useTodos();
  const tags = useTags();
  const createGroup = useCreateGroup();
  const tagNames = useMemo(() => (tags.data ?? []).map((tag) => tag.name), [tags.data]);
  return (
    <>
      {groups.isError && (
        <div className="mx-auto w-full max-w-3xl px-4 pt-6">
          <ErrorBanner
            message={errorMessage(groups.error, msg`Load groups failed`)}
            onRetry={() => void groups.refetch()}
          />
        </div>
      )}
      <Suspense fallback={null}>
        <SavedFilterLinks todos={todos.data ?? []} groups={groups.data ?? []} />
      </Suspense>
      <TodosPage
        groups={groups.data ?? []}
        groupsPending={groups.isPending}
        tags={tagNames}
        onCreateGroup={(name) => createGroup.mutateAsync({ name, color: DEFAULT_GROUP_COLOR })}
      />
    </>
  );
}
