import { useLingui } from '@lingui/react/macro';
import { AdminPage } from '#web/features/admin/components/AdminPage';
import { useDocumentTitle } from '../use-document-title';

export default function AdminRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Admin`);
  return <AdminPage />;
}
