import { RegisterPage } from '#web/features/auth/components/RegisterPage';
import { useDocumentTitle } from '../use-document-title';

export default function RegisterRoute() {
  useDocumentTitle('Register');
  return <RegisterPage />;
}
