import { useLingui } from '@lingui/react/macro';
import { RegisterPage } from '#web/features/auth/components/RegisterPage';
import { useDocumentTitle } from '../use-document-title';

export default function RegisterRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Register`);
  return <RegisterPage />;
}
