import { useLingui } from '@lingui/react/macro';
import { VerifyEmailPage } from '#web/features/auth/components/VerifyEmailPage';
import { useDocumentTitle } from '../use-document-title';

/** Loaded lazily (see router.tsx): its code is fetched only when /verify-email opens. */
export default function VerifyEmailRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Verify e-mail`);
  return <VerifyEmailPage />;
}
