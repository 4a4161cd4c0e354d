import { useLingui } from '@lingui/react/macro';
import { ResetPasswordPage } from '#web/features/auth/components/ResetPasswordPage';
import { useDocumentTitle } from '../use-document-title';

/** Loaded lazily (see router.tsx): its code is fetched only when /reset-password opens. */
export default function ResetPasswordRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Reset password`);
  return <ResetPasswordPage />;
}
