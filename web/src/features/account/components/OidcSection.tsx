import { Trans, useLingui } from '@lingui/react/macro';
import { OIDC_ERROR_PARAM } from '@tally/contract/constants';
import type { Account } from '@tally/contract';
import { useState } from 'react';
import { useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { oidcFailureSentence } from '#web/lib/oidc-failure';
import { useLinkOidc, useUnlinkOidc } from '../api/oidc';
import { Hint, SettingsSection } from '#web/components/SettingsSection';

interface OidcSectionProps {
  account: Account;
  /** OIDC_NAME (GET /api/config). */
  name: string;
}

/**
 * The operator's OpenID Connect provider: link it (a sign-in there, after confirming it's you),
 * or unlink it while another way to sign in remains. The provider's sign-in comes back to
 * /settings with `?oidc=linked` or `?oidc_error={code}`, said here once.
 */
export function OidcSection({ account, name }: OidcSectionProps) {
  const { t } = useLingui();
  const link = useLinkOidc();
  const unlink = useUnlinkOidc();
  const search = new URLSearchParams(useSearch());
  const [status, setStatus] = useState<string | null>(() =>
    search.get('oidc') === 'linked'
      ? t`${name} is linked: you can sign in with ${name} too.`
      : null,
  );
  const failure = oidcFailureSentence(search.get(OIDC_ERROR_PARAM), name);
  const forgetAnswer = () => navigate('/settings', { replace: true });

  const linked = account.oidcLinked === true;
  const canUnlink = account.hasPassword || account.googleLinked;
  return (
    <SettingsSection title={name} status={status}>
      <ErrorBanner message={failure} onDismiss={forgetAnswer} />
      {linked ? (
        <>
          <Hint>
            <Trans>Your account is linked to {name}: you can sign in with it.</Trans>
          </Hint>
          {canUnlink ? (
            <div>
              <Button
                variant="secondary"
                disabled={unlink.isPending}
                onClick={() => {
                  setStatus(null);
                  unlink.mutate(undefined, {
                    onSuccess: () => setStatus(t`${name} is unlinked.`),
                  });
                }}
              >
                {unlink.isPending ? t`Unlinking ${name}...` : t`Unlink ${name}`}
              </Button>
            </div>
          ) : (
            <Hint>
              <Trans>
                {name} cannot be unlinked while your account has no password: you could not sign in
                any more.
              </Trans>
            </Hint>
          )}
        </>
      ) : (
        <>
          <Hint>
            <Trans>Not linked. Link your {name} account to sign in with it as well.</Trans>
          </Hint>
          <div>
            <Button
              variant="secondary"
              disabled={link.isPending}
              onClick={() => {
                setStatus(null);
                if (failure) forgetAnswer();
                link.mutate();
              }}
            >
              {link.isPending ? t`Opening ${name}...` : t`Link ${name}`}
            </Button>
          </div>
        </>
      )}
    </SettingsSection>
  );
}
