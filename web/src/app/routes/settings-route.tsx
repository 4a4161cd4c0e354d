import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useConfig } from '#web/features/auth/api/get-config';
import {
  GoogleSignInButton,
  type GoogleSignInProps,
} from '#web/features/auth/components/GoogleSignInButton';
import { type FeatureSections, SettingsPage } from '#web/features/account/components/SettingsPage';
import { CalendarAppsSection } from '#web/features/calendar/components/CalendarAppsSection';
import { CalendarFeedSection } from '#web/features/calendar/components/CalendarFeedSection';
import { RemindersSection } from '#web/features/reminders/components/RemindersSection';
import { ApiTokensSection } from '#web/features/tokens/components/ApiTokensSection';
import { DataSection } from '#web/features/transfer/components/DataSection';
import { ImportSection } from '#web/features/transfer/components/ImportSection';
import { TwoFactorSection } from '#web/features/two-factor/components/TwoFactorSection';
import type { Account } from '@tally/contract';
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

// Sections few people open, and the sections of newer features, load when Settings shows them,
// so that each new feature does not weigh on the page's first load
// (scripts/check-bundle-size.mjs).
const AssistantsSection = lazy(() =>
  import('#web/features/tokens/components/AssistantsSection').then((m) => ({
    default: m.AssistantsSection,
  })),
);
const BookmarkletSection = lazy(() =>
  import('#web/features/todos/components/BookmarkletSection').then((m) => ({
    default: m.BookmarkletSection,
  })),
);
const InboxSection = lazy(() =>
  import('#web/features/inbox/components/InboxSection').then((m) => ({ default: m.InboxSection })),
);
const NotificationsSection = lazy(() =>
  import('#web/features/notifications/components/NotificationsSection').then((m) => ({
    default: m.NotificationsSection,
  })),
);

const WeekStartSetting = lazy(() => import('./week-start-setting'));

const LanguageSection = lazy(() =>
  import('#web/features/language/components/LanguageSection').then((m) => ({
    default: m.LanguageSection,
  })),
);

function Later({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  return <Suspense fallback={<LoadingText>{t`Loading...`}</LoadingText>}>{children}</Suspense>;
}

/** The sections each feature owns, in the order Settings lists them (SettingsPage). */
const featureSections = (account: Account): FeatureSections => ({
  signIn: [
    {
      id: 'two-factor',
      label: msg`Two-factor`,
      content: <TwoFactorSection hasPassword={account.hasPassword} />,
    },
  ],
  features: [
    {
      id: 'language',
      label: msg`Language`,
      content: (
        <Later>
          <LanguageSection />
        </Later>
      ),
    },
    { id: 'reminders', label: msg`Reminders`, content: <RemindersSection /> },
    { id: 'api-tokens', label: msg`API tokens`, content: <ApiTokensSection /> },
    {
      id: 'assistants',
      label: msg`AI assistants`,
      content: (
        <Later>
          <AssistantsSection />
        </Later>
      ),
    },
    {
      id: 'share',
      label: msg`Share`,
      content: (
        <Later>
          <BookmarkletSection />
        </Later>
      ),
    },
    {
      id: 'calendar-apps',
      label: msg`Calendar apps`,
      content: <CalendarAppsSection email={account.email} />,
    },
    { id: 'calendar', label: msg`Calendar feed`, content: <CalendarFeedSection /> },
    {
      id: 'calendar-view',
      label: msg`Calendar view`,
      content: (
        <Later>
          <WeekStartSetting />
        </Later>
      ),
    },
    {
      id: 'email-to-task',
      label: msg`E-mail to task`,
      content: (
        <Later>
          <InboxSection />
        </Later>
      ),
    },
    {
      id: 'notifications',
      label: msg`Notifications`,
      content: (
        <Later>
          <NotificationsSection />
        </Later>
      ),
    },
    { id: 'data', label: msg`Your data`, content: <DataSection /> },
    { id: 'import', label: msg`Import`, content: <ImportSection /> },
  ],
});

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
      featureSections={featureSections}
    />
  );
}
