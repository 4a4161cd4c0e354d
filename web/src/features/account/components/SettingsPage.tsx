import type { Account } from '@tally/contract';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { LOAD_ACCOUNT_OPERATION, useAccount } from '../api/get-account';
import { AccountSection } from './AccountSection';
import { ApiTokensSection } from './ApiTokensSection';
import { CalendarAppsSection } from './CalendarAppsSection';
import { CalendarFeedSection } from './CalendarFeedSection';
import { DangerZoneSection } from './DangerZoneSection';
import { DataSection } from './DataSection';
import type { GoogleButton } from './google-button';
import { GoogleSection } from './GoogleSection';
import { IdentityPromptDialog } from './IdentityPromptDialog';
import { ImportSection } from './ImportSection';
import { PasskeysSection } from './PasskeysSection';
import { OidcSection } from './OidcSection';
import { PasswordSection } from './PasswordSection';
import { RemindersSection } from './RemindersSection';
import { SessionsSection } from './SessionsSection';
import { TwoFactorSection } from './TwoFactorSection';

/** Who signs a password-less account in: Google, unless only single sign-on is linked. */
const signsInWith = (account: Account, oidcName: string | null) =>
  !account.googleLinked && account.oidcLinked === true && oidcName !== null ? oidcName : 'Google';

interface SettingsPageProps {
  /** The server sends e-mail (GET /api/config, passwordResetByEmail). */
  mailEnabled: boolean;
  /** Google's button, for linking Google and for deleting an account that has no password. */
  GoogleButton: GoogleButton;
  /** OIDC_NAME when single sign-on is configured (GET /api/config), else null. */
  oidcName?: string | null;
}

/**
 * /settings: Account, Password, Google, single sign-on (when configured), Sessions, Reminders, API tokens, Calendar apps (CalDAV), Calendar feed, Your data, Import,
 * Danger zone.
 */
export function SettingsPage({ mailEnabled, GoogleButton, oidcName = null }: SettingsPageProps) {
  const account = useAccount();

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:py-8">
      <h1 className="mb-6 text-2xl font-semibold text-slate-900 dark:text-slate-100">Settings</h1>
      {account.isPending ? (
        <LoadingText>Loading account...</LoadingText>
      ) : account.isError ? (
        <ErrorBanner
          message={errorMessage(account.error, LOAD_ACCOUNT_OPERATION)}
          onRetry={() => void account.refetch()}
        />
      ) : (
        <div className="space-y-6">
          <AccountSection
            account={account.data}
            mailEnabled={mailEnabled}
            signsInWith={signsInWith(account.data, oidcName)}
          />
          <PasswordSection
            hasPassword={account.data.hasPassword}
            mailEnabled={mailEnabled}
            signsInWith={signsInWith(account.data, oidcName)}
          />
          <GoogleSection account={account.data} GoogleButton={GoogleButton} />
          {oidcName !== null && <OidcSection account={account.data} name={oidcName} />}
          <TwoFactorSection hasPassword={account.data.hasPassword} />
          <PasskeysSection />
          <SessionsSection />
          <RemindersSection />
          <ApiTokensSection />
          <CalendarAppsSection email={account.data.email} />
          <CalendarFeedSection />
          <DataSection />
          <ImportSection />
          <DangerZoneSection account={account.data} GoogleButton={GoogleButton} />
          <IdentityPromptDialog
            account={account.data}
            GoogleButton={GoogleButton}
            oidcName={oidcName}
          />
        </div>
      )}
    </div>
  );
}
