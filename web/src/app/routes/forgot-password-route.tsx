import { useLingui } from '@lingui/react/macro';
import { ForgotPasswordPage } from '#web/features/auth/components/ForgotPasswordPage';
import { useDocumentTitle } from '../use-document-title';

/** Loaded lazily (see router.tsx): its code is fetched only when /forgot-password opens. */
export default function ForgotPasswordRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Forgot password`);
  return <ForgotPasswordPage />;
}
