import { useLingui } from '@lingui/react/macro';
import { useConfig } from '#web/features/auth/api/get-config';
import {
  GoogleSignInButton,
  type GoogleSignInProps,
} from '#web/features/auth/components/GoogleSignInButton';
import { SettingsPage } from '#web/features/account/components/SettingsPage';
import { lazy, Suspense, type ReactNode } from 'react';
import { LoadingText } from '#web/components/LoadingText';
import { useDocumentTitle } from '../use-document-title';

/**
 * Google's button of the sign-in feature (with its nonce), for linking Google and confirming a
 * deletion: no One Tap here, where a credential changes the account.
 */
function SettingsGoogleButton(props: GoogleSignInProps) {
  return <GoogleSignInButton {...props} oneTap={false} />;
}

// The sections other features own load when Settings shows them, so that each new feature does
// not weigh on the page's first load (scripts/check-bundle-size.mjs).
const InboxSection = lazy(() =>
  import('#web/features/inbox/components/InboxSection').then((m) => ({ default: m.InboxSection })),
);
const NotificationsSection = lazy(() =>
  import('#web/features/notifications/components/NotificationsSection').then((m) => ({
    default: m.NotificationsSection,
  })),
);

const LanguageSection = lazy(() =>
  import('#web/features/language/components/LanguageSection').then((m) => ({
    default: m.LanguageSection,
  })),
);

function Later({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  return <Suspense fallback={<LoadingText>{t`Loading...`}</LoadingText>}>{children}</Suspense>;
}

/** Loaded lazily (see router.tsx): its code is fetched only when /settings opens. */
export default function SettingsRoute({ section }: { section?: string | undefined }) {
  const { t } = useLingui();
  useDocumentTitle(t`Settings`);
  const config = useConfig();
  return (
    <SettingsPage
      section={section}
      googleEnabled={Boolean(config.data?.googleClientId)}
      mailEnabled={config.data?.passwordResetByEmail ?? false}
      GoogleButton={SettingsGoogleButton}
      oidcName={config.data?.oidc?.name ?? null}
      featureSections={[
        {
          id: 'language',
          label: t`Language`,
          content: (
            <Later>
              <LanguageSection />
            </Later>
          ),
        },
        {
          id: 'email-to-task',
          label: t`E-mail to task`,
          content: (
            <Later>
              <InboxSection />
            </Later>
          ),
        },
        {
          id: 'notifications',
          label: t`Notifications`,
          content: (
            <Later>
              <NotificationsSection />
            </Later>
          ),
        },
      ]}
    />
  );
}
