import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Button } from '#web/components/Button';
import { ConfirmDialog } from '#web/components/ConfirmDialog';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { useCalendarFeed } from '../api/get-calendar-feed';
import { useRegenerateCalendarFeed } from '../api/regenerate-calendar-feed';
import { useRemoveCalendarFeed } from '../api/remove-calendar-feed';
import { addressCopied } from '../lib/address-copied';
import { Hint, SettingsSection } from '#web/components/SettingsSection';
import { CopyField } from '#web/components/CopyField';

const linkClass = 'font-medium text-blue-700 underline underline-offset-2 dark:text-blue-300';

type Confirming = 'regenerate' | 'remove' | null;

/** The private calendar address: make it, copy it, make a new one, turn it off. */
export function CalendarFeedSection() {
  const feed = useCalendarFeed();
  const regenerate = useRegenerateCalendarFeed();
  const remove = useRemoveCalendarFeed();
  const [status, setStatus] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [justMade, setJustMade] = useState(false);
  const { t } = useLingui();

  const make = (again: boolean) => {
    setStatus(null);
    regenerate.mutate(undefined, {
      onSuccess: () => {
        setConfirming(null);
        setJustMade(true);
        setStatus(
          again
            ? t`A new calendar address is ready. The old one no longer works.`
            : t`Your calendar address is ready. Add it to your calendar app as a subscription.`,
        );
      },
    });
  };

  const turnOff = () => {
    setStatus(null);
    remove.mutate(undefined, {
      onSuccess: () => {
        setConfirming(null);
        setStatus(t`The calendar feed is off. Its address no longer works.`);
      },
    });
  };

  const url = feed.data ? new URL(feed.data.path, window.location.origin).href : null;
  const timeZone = feed.data?.timeZone;
  return (
    <SettingsSection title={t`Calendar feed`} status={status}>
      <Hint>
        <Trans>
          See your open todos that have a due date in a calendar app (Google Calendar, Apple
          Calendar, Outlook, Thunderbird) by subscribing to a private address. Anyone who has the
          address can see those todos: keep it to yourself, and make a new one if it got out.
        </Trans>
      </Hint>
      {feed.isPending ? (
        <LoadingText>{t`Loading calendar feed...`}</LoadingText>
      ) : feed.isError ? (
        <ErrorBanner
          message={errorMessage(feed.error, msg`Load calendar feed failed`)}
          onRetry={() => void feed.refetch()}
        />
      ) : feed.data === null || url === null ? (
        <div>
          <Button onClick={() => make(false)} disabled={regenerate.isPending}>
            {regenerate.isPending ? t`Creating address...` : t`Create calendar address`}
          </Button>
        </div>
      ) : (
        <>
          <CopyField
            // A new address is a new field: it takes the focus when it was just made.
            key={url}
            label={t`Calendar address`}
            value={url}
            copyLabel={t`Copy address`}
            onCopy={(copied) => setStatus(addressCopied(copied))}
            focusOnMount={justMade}
          />
          <Hint>
            <Trans>
              Times of day are in {timeZone}, the time zone of the browser that made this address.
            </Trans>{' '}
            <a href={url.replace(/^https?:/, 'webcal:')} className={linkClass}>
              <Trans>Open in your calendar app</Trans>
            </a>
          </Hint>
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" onClick={() => setConfirming('regenerate')}>
              <Trans>Make a new address</Trans>
            </Button>
            <Button variant="ghostDanger" onClick={() => setConfirming('remove')}>
              <Trans>Turn off</Trans>
            </Button>
          </div>
        </>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === 'remove' ? t`Turn off the calendar feed?` : t`Make a new address?`}
        confirmLabel={confirming === 'remove' ? t`Turn off` : t`Make a new address`}
        tone={confirming === 'remove' ? 'danger' : 'primary'}
        pending={confirming === 'remove' ? remove.isPending : regenerate.isPending}
        onConfirm={() => (confirming === 'remove' ? turnOff() : make(true))}
        onCancel={() => setConfirming(null)}
      >
        <p>
          {confirming === 'remove'
            ? t`The address stops working at once: calendar apps subscribed to it stop updating.`
            : t`The current address stops working at once: calendar apps subscribed to it stop updating until you add the new one.`}
        </p>
      </ConfirmDialog>
    </SettingsSection>
  );
}
