import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { Account } from '@tally/contract';
import { Button } from '#web/components/Button';
import { showNotice } from '#web/lib/notices';
import { useLinkGoogle } from '../api/link-google';
import { useUnlinkGoogle } from '../api/unlink-google';
import { GOOGLE_CLIENT_FAILURE, type GoogleButton } from './google-button';
import { Hint, SettingsSection } from '#web/components/SettingsSection';

interface GoogleSectionProps {
  account: Account;
  GoogleButton: GoogleButton;
}

/** Whether Google is linked; link it with Google's button, unlink it when there is a password. */
export function GoogleSection({ account, GoogleButton }: GoogleSectionProps) {
  const { t, i18n } = useLingui();
  const link = useLinkGoogle();
  const unlink = useUnlinkGoogle();
  const [status, setStatus] = useState<string | null>(null);

  const onCredential = (credential: string) => {
    setStatus(null);
    link.mutate(credential, {
      onSuccess: () => setStatus(t`Google is linked: you can sign in with Google too.`),
    });
  };

  const onFailure = () => {
    console.warn('Linking Google failed: no credential from Google');
    showNotice(i18n._(GOOGLE_CLIENT_FAILURE), { tone: 'error' });
  };

  const unlinkGoogle = () => {
    setStatus(null);
    unlink.mutate(undefined, {
      onSuccess: () =>
        setStatus(t`Google is unlinked: you sign in with your username and password.`),
    });
  };

  if (account.googleLinked) {
    return (
      <SettingsSection title="Google" status={status}>
        <Hint>
          <Trans>Your account is linked to a Google account: you can sign in with Google.</Trans>
        </Hint>
        {account.hasPassword || account.oidcLinked === true ? (
          <div>
            <Button variant="secondary" onClick={unlinkGoogle} disabled={unlink.isPending}>
              {unlink.isPending ? t`Unlinking Google...` : t`Unlink Google`}
            </Button>
          </div>
        ) : (
          <Hint>
            <Trans>
              Google cannot be unlinked while your account has no password: you could not sign in
              any more.
            </Trans>
          </Hint>
        )}
      </SettingsSection>
    );
  }

  return (
    <SettingsSection title="Google" status={status}>
      <Hint>
        <Trans>
          Not linked. Link a Google account to sign in with Google as well as your password.
        </Trans>
      </Hint>
      <div className="max-w-sm">
        <GoogleButton
          onCredential={onCredential}
          onFailure={onFailure}
          pending={link.isPending}
          pendingText={t`Linking Google...`}
        />
      </div>
    </SettingsSection>
  );
}
