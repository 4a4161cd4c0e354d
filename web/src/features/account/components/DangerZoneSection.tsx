import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import type { Account } from '@tally/contract';
import { Button } from '#web/components/Button';
import { Form, FormActions } from '#web/components/Form';
import { TextField } from '#web/components/FormField';
import { fieldErrorOf } from '#web/lib/api-client';
import { showNotice } from '#web/lib/notices';
import { useDeleteAccount } from '../api/delete-account';
import { GOOGLE_CLIENT_FAILURE, type GoogleButton } from './google-button';
import { Hint, SettingsSection, SubHeading } from '#web/components/SettingsSection';

interface DangerZoneSectionProps {
  account: Account;
  GoogleButton: GoogleButton;
}

/**
 * Delete account: the username typed again, and the password (or, for an account without one, a
 * fresh sign-in with its Google account). Afterwards the session ends and the page goes to /.
 */
export function DangerZoneSection({ account, GoogleButton }: DangerZoneSectionProps) {
  const { t, i18n } = useLingui();
  const deleteAccount = useDeleteAccount();
  const [typed, setTyped] = useState('');
  const hintId = useId();
  const confirmed = typed === account.username;

  const submit = (data: FormData) => {
    if (!confirmed || !account.hasPassword) return;
    deleteAccount.mutate({ password: String(data.get('password') ?? '') });
  };

  const onGoogleCredential = (credential: string) => {
    if (confirmed) deleteAccount.mutate({ googleToken: credential });
  };

  const onGoogleFailure = () => {
    console.warn('Deleting the account with Google failed: no credential from Google');
    showNotice(i18n._(GOOGLE_CLIENT_FAILURE), { tone: 'error' });
  };

  const { username } = account;
  return (
    <SettingsSection title={t`Danger zone`} danger>
      <SubHeading>
        <Trans>Delete account</Trans>
      </SubHeading>
      <Hint>
        <Trans>
          This deletes your account with all its todos, groups and statistics, at once and for good.
          It cannot be undone; export your data first if you want to keep it.
        </Trans>
      </Hint>
      <Form
        label={t`Delete account`}
        onSubmit={submit}
        // A refusal beside a field goes once the user edits the form.
        onChange={() => {
          if (deleteAccount.isError) deleteAccount.reset();
        }}
      >
        <TextField
          label={t`Username`}
          name="confirmUsername"
          type="text"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          aria-describedby={hintId}
          required
        />
        <Hint id={hintId}>
          <Trans>
            Type your username, <strong className="font-semibold">{username}</strong>, to confirm.
          </Trans>
        </Hint>
        {account.hasPassword ? (
          <>
            <TextField
              label={t`Password`}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              error={fieldErrorOf(deleteAccount.error, 'password')}
            />
            <FormActions>
              <Button
                type="submit"
                variant="danger"
                disabled={!confirmed || deleteAccount.isPending}
              >
                {deleteAccount.isPending ? t`Deleting account...` : t`Delete my account`}
              </Button>
            </FormActions>
          </>
        ) : confirmed && !account.googleLinked ? (
          // Only single sign-on signs this account in: a recent sign-in there is the proof (the
          // server asks for it with reauthentication_required, and the dialog offers it).
          <FormActions>
            <Button
              variant="danger"
              disabled={deleteAccount.isPending}
              onClick={() => deleteAccount.mutate({})}
            >
              {deleteAccount.isPending ? t`Deleting account...` : t`Delete my account`}
            </Button>
          </FormActions>
        ) : confirmed ? (
          <div className="max-w-sm space-y-2">
            <Hint>
              <Trans>Your account has no password: sign in with Google again to delete it.</Trans>
            </Hint>
            <GoogleButton
              onCredential={onGoogleCredential}
              onFailure={onGoogleFailure}
              pending={deleteAccount.isPending}
              pendingText={t`Deleting your account...`}
            />
          </div>
        ) : null}
      </Form>
    </SettingsSection>
  );
}
