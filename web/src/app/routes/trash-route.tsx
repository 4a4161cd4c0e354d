import { TrashPage } from '#web/features/trash/components/TrashPage';
import { useDocumentTitle } from '../use-document-title';

export default function TrashRoute() {
  useDocumentTitle('Trash');
  return <TrashPage />;
}
