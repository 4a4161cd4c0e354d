import { useLingui } from '@lingui/react/macro';
import { ChoosePasswordPage } from '#web/features/account/components/ChoosePasswordPage';
import { useDocumentTitle } from '../use-document-title';

/** Loaded lazily (see guards.tsx): only an account with a one-time password needs it. */
export default function ChoosePasswordRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Choose a new password`);
  return <ChoosePasswordPage />;
}
