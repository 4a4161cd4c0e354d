import { useLingui } from '@lingui/react/macro';
import { LoginPage } from '#web/features/auth/components/LoginPage';
import { useDocumentTitle } from '../use-document-title';

export default function LoginRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Login`);
  return <LoginPage />;
}
