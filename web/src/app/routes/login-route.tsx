import { LoginPage } from '#web/features/auth/components/LoginPage';
import { useDocumentTitle } from '../use-document-title';

export default function LoginRoute() {
  useDocumentTitle('Login');
  return <LoginPage />;
}
