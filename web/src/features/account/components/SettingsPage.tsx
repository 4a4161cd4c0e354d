import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { Account } from '@tally/contract';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { LOAD_ACCOUNT_OPERATION, useAccount } from '../api/get-account';
import { AccountSection } from './AccountSection';
import { DangerZoneSection } from './DangerZoneSection';
import type { GoogleButton } from './google-button';
import { GoogleSection } from './GoogleSection';
import { IdentityPromptDialog } from './IdentityPromptDialog';
import { PasskeysSection } from './PasskeysSection';
import { OidcSection } from './OidcSection';
import { PasswordSection } from './PasswordSection';
import { SessionsSection } from './SessionsSection';

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
  /** Google sign-in is configured on this server (GET /api/config, googleClientId). */
  googleEnabled?: boolean;
  /** The section the address names (/settings/{id}); all of them when undefined. */
  section?: string | undefined;
  /**
   * The sections other features own, which the route composes: `signIn` ones (two-factor,
   * passkeys) come after the ways to sign in, the others after Sessions, before Danger zone.
   */
  featureSections?: (account: Account) => FeatureSections;
}

interface SectionEntry {
  /** Its address: /settings/{id}. */
  id: string;
  /** Its name in the section menu: a message, or a name the same in every language (Google). */
  label: MessageDescriptor | string;
  content: ReactNode;
}

export interface FeatureSections {
  signIn: SectionEntry[];
  features: SectionEntry[];
}

const NO_FEATURE_SECTIONS: FeatureSections = { signIn: [], features: [] };

/**
 * /settings: the account's own sections (Account, Password, Google, single sign-on when
 * configured, Passkeys, Sessions, Danger zone) around the sections other features own, which the
 * route composes (settings-route.tsx) so each feature keeps its section in its own folder.
 */
export function SettingsPage({
  mailEnabled,
  GoogleButton,
  oidcName = null,
  googleEnabled = true,
  section,
  featureSections = () => NO_FEATURE_SECTIONS,
}: SettingsPageProps) {
  const { t } = useLingui();
  const account = useAccount();
  const owned = account.data ? featureSections(account.data) : NO_FEATURE_SECTIONS;

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:py-8">
      <h1 className="mb-6 text-2xl font-semibold text-slate-900 dark:text-slate-100">
        <Trans>Settings</Trans>
      </h1>
      {account.data?.operator && (
        <p className="-mt-4 mb-6 text-sm text-slate-600 dark:text-slate-400">
          <Trans>
            You operate this Tally:{' '}
            <Link href="/admin" className="font-medium text-blue-700 underline dark:text-blue-300">
              Admin page
            </Link>
          </Trans>
        </p>
      )}
      {account.isPending ? (
        <LoadingText>{t`Loading account...`}</LoadingText>
      ) : account.isError ? (
        <ErrorBanner
          message={errorMessage(account.error, LOAD_ACCOUNT_OPERATION)}
          onRetry={() => void account.refetch()}
        />
      ) : (
        <SettingsSections
          section={section}
          sections={[
            {
              id: 'account',
              label: msg`Account`,
              content: (
                <AccountSection
                  account={account.data}
                  mailEnabled={mailEnabled}
                  signsInWith={signsInWith(account.data, oidcName)}
                />
              ),
            },
            {
              id: 'password',
              label: msg`Password`,
              content: (
                <PasswordSection
                  hasPassword={account.data.hasPassword}
                  mailEnabled={mailEnabled}
                  signsInWith={signsInWith(account.data, oidcName)}
                />
              ),
            },
            // Google only where this server is set up for it (or the account is linked already).
            ...(googleEnabled || account.data.googleLinked
              ? [
                  {
                    id: 'google',
                    label: 'Google',
                    content: <GoogleSection account={account.data} GoogleButton={GoogleButton} />,
                  },
                ]
              : []),
            ...(oidcName !== null
              ? [
                  {
                    id: 'sso',
                    label: oidcName,
                    content: <OidcSection account={account.data} name={oidcName} />,
                  },
                ]
              : []),
            ...owned.signIn,
            { id: 'passkeys', label: msg`Passkeys`, content: <PasskeysSection /> },
            { id: 'sessions', label: msg`Sessions`, content: <SessionsSection /> },
            ...owned.features,
            {
              id: 'danger',
              label: msg`Danger zone`,
              content: <DangerZoneSection account={account.data} GoogleButton={GoogleButton} />,
            },
          ]}
        >
          <IdentityPromptDialog
            account={account.data}
            GoogleButton={GoogleButton}
            oidcName={oidcName}
          />
        </SettingsSections>
      )}
    </div>
  );
}

/**
 * The section menu (a link per section, its own address /settings/{id}) and the sections: the
 * one the address names, or all of them at /settings. An unknown name shows them all.
 */
function SettingsSections({
  sections,
  section,
  children,
}: {
  sections: SectionEntry[];
  section: string | undefined;
  children: ReactNode;
}) {
  const { t, i18n } = useLingui();
  const chosen = sections.find((entry) => entry.id === section);
  return (
    <div className="gap-6 md:flex md:items-start">
      <nav aria-label={t`Settings sections`} className="mb-6 md:sticky md:top-4 md:mb-0 md:w-44">
        <ul className="flex flex-wrap gap-1 pb-1 md:flex-col">
          <li>
            <SectionLink href="/settings" current={!chosen}>
              <Trans>All</Trans>
            </SectionLink>
          </li>
          {sections.map((entry) => (
            <li key={entry.id}>
              <SectionLink href={`/settings/${entry.id}`} current={chosen?.id === entry.id}>
                {typeof entry.label === 'string' ? entry.label : i18n._(entry.label)}
              </SectionLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0 flex-1 space-y-6">
        {chosen
          ? chosen.content
          : sections.map((entry) => <div key={entry.id}>{entry.content}</div>)}
        {children}
      </div>
    </div>
  );
}

function SectionLink({
  href,
  current,
  children,
}: {
  href: string;
  current: boolean;
  children: ReactNode;
}) {
  return (
    <Link
      href={href}
      aria-current={current ? 'page' : undefined}
      className={
        'flex min-h-11 items-center rounded-md px-3 text-sm font-medium whitespace-nowrap ' +
        'md:min-h-9 ' +
        (current
          ? 'bg-blue-50 text-blue-800 dark:bg-slate-800 dark:text-blue-200'
          : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800')
      }
    >
      {children}
    </Link>
  );
}
