import { GroupsPage } from '#web/features/groups/components/GroupsPage';
import { useDocumentTitle } from '../use-document-title';

export default function GroupsRoute() {
  useDocumentTitle('Groups');
  return <GroupsPage />;
}
