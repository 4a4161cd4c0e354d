import { ResetPasswordPage } from '#web/features/auth/components/ResetPasswordPage';
import { useDocumentTitle } from '../use-document-title';

/** Loaded lazily (see router.tsx): its code is fetched only when /reset-password opens. */
export default function ResetPasswordRoute() {
  useDocumentTitle('Reset password');
  return <ResetPasswordPage />;
}
