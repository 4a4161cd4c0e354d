import { useConfig } from '#web/features/auth/api/get-config';
import {
  GoogleSignInButton,
  type GoogleSignInProps,
} from '#web/features/auth/components/GoogleSignInButton';
import { SettingsPage } from '#web/features/account/components/SettingsPage';
import { InboxSection } from '#web/features/inbox/components/InboxSection';
import { NotificationsSection } from '#web/features/notifications/components/NotificationsSection';
import { useDocumentTitle } from '../use-document-title';

/**
 * Google's button of the sign-in feature (with its nonce), for linking Google and confirming a
 * deletion: no One Tap here, where a credential changes the account.
 */
function SettingsGoogleButton(props: GoogleSignInProps) {
  return <GoogleSignInButton {...props} oneTap={false} />;
}

/** Loaded lazily (see router.tsx): its code is fetched only when /settings opens. */
export default function SettingsRoute({ section }: { section?: string | undefined }) {
  useDocumentTitle('Settings');
  const config = useConfig();
  return (
    <SettingsPage
      section={section}
      googleEnabled={Boolean(config.data?.googleClientId)}
      mailEnabled={config.data?.passwordResetByEmail ?? false}
      GoogleButton={SettingsGoogleButton}
      oidcName={config.data?.oidc?.name ?? null}
      featureSections={[
        { id: 'email-to-task', label: 'E-mail to task', content: <InboxSection /> },
        { id: 'notifications', label: 'Notifications', content: <NotificationsSection /> },
      ]}
    />
  );
}
