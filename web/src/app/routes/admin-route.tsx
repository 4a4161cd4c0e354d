import { AdminPage } from '#web/features/admin/components/AdminPage';
import { useDocumentTitle } from '../use-document-title';

export default function AdminRoute() {
  useDocumentTitle('Admin');
  return <AdminPage />;
}
