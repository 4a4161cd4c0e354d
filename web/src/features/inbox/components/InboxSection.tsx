import { Trans, useLingui } from '@lingui/react/macro';
import { Switch } from '#web/components/Switch';
import { useId, useState } from 'react';
import { Button } from '#web/components/Button';
import { CopyField } from '#web/components/CopyField';
import { copyResult } from '#web/lib/copy-text';
import { ConfirmDialog } from '#web/components/ConfirmDialog';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { cn } from '#web/lib/cn';
import { LOAD_INBOX_OPERATION, useInbox } from '../api/get-inbox';
import { useRenewInbox } from '../api/renew-inbox';
import { useUpdateInbox } from '../api/update-inbox';

const hintClass = 'text-sm text-slate-600 dark:text-slate-400';

/**
 * Settings → E-mail to task: the private address (copy it), a new one when it got out, and
 * whether mail is taken only from the account's verified address. A card like the other
 * sections of /settings.
 */
export function InboxSection() {
  const { t } = useLingui();
  const headingId = useId();
  const inbox = useInbox();
  const renew = useRenewInbox();
  const update = useUpdateInbox();
  const [status, setStatus] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const makeNew = () => {
    setStatus(null);
    renew.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        setStatus(t`A new address is ready. Mail to the old one no longer makes todos.`);
      },
    });
  };

  const setOnly = (only: boolean) => {
    setStatus(null);
    update.mutate(only, {
      onSuccess: () =>
        setStatus(
          only
            ? t`Only mail from your own address makes todos now.`
            : t`Mail from anyone who has the address makes todos now.`,
        ),
    });
  };

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id={headingId} className="mb-4 text-lg font-semibold text-slate-900 dark:text-slate-100">
        <Trans>E-mail to task</Trans>
      </h2>
      <div className="space-y-4">
        <p className={hintClass}>
          <Trans>
            Send or forward an e-mail to your private address and it becomes a todo: the subject is
            read as in quick add (a date, a repeat, #group, @tags, p1-p3), the text is its
            description. Keep the address to yourself, and make a new one if it got out.
          </Trans>
        </p>
        {inbox.isPending ? (
          <LoadingText>{t`Loading e-mail to task...`}</LoadingText>
        ) : inbox.isError ? (
          <ErrorBanner
            message={errorMessage(inbox.error, LOAD_INBOX_OPERATION)}
            onRetry={() => void inbox.refetch()}
          />
        ) : inbox.data.address === null ? (
          <p className={hintClass}>
            <Trans>
              E-mail to task is not set up on this server: its operator sets INBOX_IMAP_URL and
              INBOX_ADDRESS to turn it on.
            </Trans>
          </p>
        ) : (
          <>
            <CopyField
              label={t`Your address`}
              value={inbox.data.address}
              copyLabel={t`Copy address`}
              onCopy={(copied) => setStatus(copyResult(copied, 'address'))}
            />
            <OnlyMineSwitch
              on={inbox.data.onlyFromMyAddresses}
              disabled={update.isPending}
              onChange={setOnly}
              email={inbox.data.verifiedEmail}
            />
            <div>
              <Button variant="secondary" onClick={() => setConfirming(true)}>
                <Trans>Make a new address</Trans>
              </Button>
            </div>
          </>
        )}
      </div>
      {/* Always there (empty without a result), so that screen readers notice new text. */}
      <p
        role="status"
        className="mt-4 text-sm font-medium text-green-800 empty:mt-0 dark:text-green-300"
      >
        {status}
      </p>
      <ConfirmDialog
        open={confirming}
        title={t`Make a new address?`}
        confirmLabel={t`Make a new address`}
        tone="primary"
        pending={renew.isPending}
        onConfirm={makeNew}
        onCancel={() => setConfirming(false)}
      >
        <p>
          <Trans>Mail sent to the current address stops making todos at once.</Trans>
        </p>
      </ConfirmDialog>
    </section>
  );
}

/** "Only from my address": a switch, with what it means for this account. */
function OnlyMineSwitch({
  on,
  disabled,
  onChange,
  email,
}: {
  on: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
  email: string | null;
}) {
  const { t } = useLingui();
  const hintId = useId();
  return (
    <div>
      <Switch
        on={on}
        onChange={onChange}
        label={t`Only from my address`}
        disabled={disabled}
        describedBy={hintId}
      />
      <p id={hintId} className={cn(hintClass, 'mt-1')}>
        {!on
          ? t`Mail from anyone who has the address makes a todo.`
          : email !== null
            ? t`Only mail from ${email} makes a todo; other mail is dropped without an answer.`
            : t`Your e-mail address is not verified yet: no mail makes a todo until it is (see Account), or until you turn this off.`}
      </p>
    </div>
  );
}
