import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState } from 'react';
import type { Passkey } from '@tally/contract';
import { Button } from '#web/components/Button';
import { ConfirmDialog } from '#web/components/ConfirmDialog';
import { Form, FormActions } from '#web/components/Form';
import { TextField } from '#web/components/FormField';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { PasskeyCancelled, passkeysSupported } from '#web/lib/webauthn';
import { ADD_PASSKEY_OPERATION, useAddPasskey } from '../api/add-passkey';
import { LOAD_PASSKEYS_OPERATION, usePasskeys } from '../api/get-passkeys';
import { useRemovePasskey } from '../api/remove-passkey';
import { useRenamePasskey } from '../api/rename-passkey';
import { endedSentence, endOtherAccessOf } from '#web/lib/end-other-access';
import { EndOtherAccessFields } from '#web/components/EndOtherAccessFields';
import {
  Hint,
  SettingsList,
  SettingsSection,
  SubHeading,
  When,
} from '#web/components/SettingsSection';

/** contract/src/passkeys.ts: PASSKEY_NAME_MAX (a type import keeps the schemas out of the bundle). */
const NAME_MAX = 64;

/** One passkey: its name (renamed in place), when it was added and last used, Remove. */
function PasskeyRow({
  passkey,
  onRemove,
  onRenamed,
}: {
  passkey: Passkey;
  onRemove: (passkey: Passkey) => void;
  onRenamed: (passkey: Passkey) => void;
}) {
  const { t } = useLingui();
  const rename = useRenamePasskey();
  const [editing, setEditing] = useState(false);
  const errorId = useId();
  const error = rename.isError ? errorMessage(rename.error, msg`Rename passkey failed`) : null;
  const { name } = passkey;

  if (editing) {
    return (
      <li className="py-3">
        <Form
          label={t`Rename passkey ${name}`}
          onSubmit={(data) =>
            rename.mutate(
              { id: passkey.id, name: String(data.get('name') ?? '').trim() },
              {
                onSuccess: (renamed) => {
                  setEditing(false);
                  onRenamed(renamed);
                },
              },
            )
          }
        >
          <TextField
            label={t`New name`}
            name="name"
            defaultValue={passkey.name}
            maxLength={NAME_MAX}
            required
            autoComplete="off"
            data-autofocus
            aria-invalid={error !== null}
            aria-describedby={error ? errorId : undefined}
          />
          {error && (
            <p id={errorId} role="alert" className="text-sm text-red-700 dark:text-red-300">
              {error}
            </p>
          )}
          <FormActions>
            <Button type="submit" size="compact" disabled={rename.isPending}>
              {rename.isPending ? t`Saving...` : t`Save`}
            </Button>
            <Button
              variant="secondary"
              size="compact"
              onClick={() => {
                rename.reset();
                setEditing(false);
              }}
            >
              <Trans>Cancel</Trans>
            </Button>
          </FormActions>
        </Form>
      </li>
    );
  }

  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900 dark:text-slate-100">{passkey.name}</p>
        <p className="mt-0.5 flex flex-wrap gap-x-3 text-sm text-slate-600 dark:text-slate-400">
          <When label={t`Added`} instant={passkey.createdAt} />
          <When label={t`Last used`} instant={passkey.lastUsedAt} />
        </p>
      </div>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          size="compact"
          onClick={() => setEditing(true)}
          aria-label={t`Rename passkey ${name}`}
        >
          <Trans>Rename</Trans>
        </Button>
        <Button
          variant="secondary"
          size="compact"
          onClick={() => onRemove(passkey)}
          aria-label={t`Remove passkey ${name}`}
        >
          <Trans>Remove</Trans>
        </Button>
      </div>
    </li>
  );
}

/**
 * Passkeys: sign in with the device's screen lock, fingerprint or face instead of the password.
 * Add one (named), list them with when they were last used, rename, remove. Adding and removing
 * ask "Confirm it's you" when the session has not proved itself for a few minutes.
 */
export function PasskeysSection() {
  const { t } = useLingui();
  const passkeys = usePasskeys();
  const addPasskey = useAddPasskey();
  const removePasskey = useRemovePasskey();
  const [status, setStatus] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const removeFormRef = useRef<HTMLFormElement>(null);
  const errorId = useId();
  const supported = passkeysSupported();

  // A cancelled prompt, or a declined "Confirm it's you", is no error to show.
  const addError =
    addPasskey.isError &&
    !(addPasskey.error instanceof PasskeyCancelled) &&
    !(addPasskey.error instanceof ApiError && addPasskey.error.code === 'reauthentication_required')
      ? errorMessage(addPasskey.error, ADD_PASSKEY_OPERATION)
      : null;

  const submit = (data: FormData) => {
    setStatus(null);
    const choice = endOtherAccessOf(data);
    addPasskey.mutate(
      { name: String(data.get('name') ?? '').trim(), choice },
      {
        onSuccess: ({ name }) => {
          formRef.current?.reset();
          setStatus(t`Passkey ${name} is added: you can sign in with it.` + endedSentence(choice));
        },
      },
    );
  };

  const remove = (passkey: Passkey) => {
    setStatus(null);
    const choice = endOtherAccessOf(new FormData(removeFormRef.current ?? undefined));
    removePasskey.mutate(
      { id: passkey.id, choice },
      {
        onSuccess: () => {
          setRemoving(null);
          const { name } = passkey;
          setStatus(t`Passkey ${name} is removed: it no longer signs in.` + endedSentence(choice));
        },
        onError: () => setRemoving(null),
      },
    );
  };

  const removingName = removing?.name;
  return (
    <SettingsSection title={t`Passkeys`} status={status}>
      <Hint>
        <Trans>
          A passkey signs you in with this device&apos;s screen lock, fingerprint or face instead of
          your password. It stays on your device (or in your password manager) and works only on
          this site.
        </Trans>
      </Hint>
      {supported ? (
        <>
          <SubHeading>
            <Trans>New passkey</Trans>
          </SubHeading>
          <Form label={t`New passkey`} onSubmit={submit} ref={formRef}>
            <TextField
              label={t`Passkey name`}
              name="name"
              maxLength={NAME_MAX}
              required
              autoComplete="off"
              placeholder={t`e.g. Work laptop`}
              aria-invalid={addError !== null}
              aria-describedby={addError ? errorId : undefined}
            />
            {addError && (
              <p id={errorId} role="alert" className="text-sm text-red-700 dark:text-red-300">
                {addError}
              </p>
            )}
            <EndOtherAccessFields />
            <FormActions>
              <Button type="submit" disabled={addPasskey.isPending}>
                {addPasskey.isPending ? t`Adding passkey...` : t`Add passkey`}
              </Button>
            </FormActions>
          </Form>
        </>
      ) : (
        <Hint>
          <Trans>This browser cannot make passkeys.</Trans>
        </Hint>
      )}
      <SubHeading>
        <Trans>Your passkeys</Trans>
      </SubHeading>
      <SettingsList
        query={passkeys}
        label={t`Passkeys`}
        loading={t`Loading passkeys...`}
        loadOperation={LOAD_PASSKEYS_OPERATION}
        empty={<Trans>You have no passkeys.</Trans>}
      >
        {(passkey) => (
          <PasskeyRow
            key={passkey.id}
            passkey={passkey}
            onRemove={setRemoving}
            onRenamed={({ name }) => setStatus(t`Passkey renamed to ${name}.`)}
          />
        )}
      </SettingsList>
      <ConfirmDialog
        open={removing !== null}
        title={t`Remove passkey`}
        confirmLabel={t`Remove`}
        pending={removePasskey.isPending}
        onConfirm={() => removing && remove(removing)}
        onCancel={() => setRemoving(null)}
      >
        <form ref={removeFormRef} aria-label={t`Remove passkey`} className="space-y-3">
          <p>
            <Trans>
              Remove &quot;{removingName}&quot;? It no longer signs you in. (Your device may still
              offer it: remove it there too.)
            </Trans>
          </p>
          <EndOtherAccessFields />
        </form>
      </ConfirmDialog>
    </SettingsSection>
  );
}
