import { useGroups } from '#web/features/groups/api/get-groups';
import { FilterPage } from '#web/features/filters/components/FilterPage';
import { useTodos } from '#web/features/todos/api/get-todos';
import { useDocumentTitle } from '../use-document-title';

/** A saved filter's page: the filter reads the todos and groups the browser holds. */
export default function FiltersRoute({ id }: { id: string }) {
  useDocumentTitle('Filter');
  const groups = useGroups();
  const { todos, complete } = useTodos();
  return (
    <FilterPage
      key={id}
      id={id}
      todos={todos.data ?? []}
      groups={groups.data ?? []}
      complete={complete}
    />
  );
}
