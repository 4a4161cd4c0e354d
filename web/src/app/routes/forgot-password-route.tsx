import { ForgotPasswordPage } from '#web/features/auth/components/ForgotPasswordPage';
import { useDocumentTitle } from '../use-document-title';

/** Loaded lazily (see router.tsx): its code is fetched only when /forgot-password opens. */
export default function ForgotPasswordRoute() {
  useDocumentTitle('Forgot password');
  return <ForgotPasswordPage />;
}
