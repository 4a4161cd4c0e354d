import { GroupsView } from '../../features/groups/components/GroupsView';
import { useDocumentTitle } from '../use-document-title';

export default function GroupsRoute() {
  useDocumentTitle('Groups');
  return <GroupsView />;
}
