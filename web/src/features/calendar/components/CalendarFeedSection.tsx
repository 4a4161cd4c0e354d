import { useState } from 'react';
import { Button } from '#web/components/Button';
import { ConfirmDialog } from '#web/components/ConfirmDialog';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { LOAD_CALENDAR_FEED_OPERATION, useCalendarFeed } from '../api/get-calendar-feed';
import { useRegenerateCalendarFeed } from '../api/regenerate-calendar-feed';
import { useRemoveCalendarFeed } from '../api/remove-calendar-feed';
import { copyResult } from '#web/lib/copy-text';
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

  const make = (again: boolean) => {
    setStatus(null);
    regenerate.mutate(undefined, {
      onSuccess: () => {
        setConfirming(null);
        setJustMade(true);
        setStatus(
          again
            ? 'A new calendar address is ready. The old one no longer works.'
            : 'Your calendar address is ready. Add it to your calendar app as a subscription.',
        );
      },
    });
  };

  const turnOff = () => {
    setStatus(null);
    remove.mutate(undefined, {
      onSuccess: () => {
        setConfirming(null);
        setStatus('The calendar feed is off. Its address no longer works.');
      },
    });
  };

  const url = feed.data ? new URL(feed.data.path, window.location.origin).href : null;
  return (
    <SettingsSection title="Calendar feed" status={status}>
      <Hint>
        See your open todos that have a due date in a calendar app (Google Calendar, Apple Calendar,
        Outlook, Thunderbird) by subscribing to a private address. Anyone who has the address can
        see those todos: keep it to yourself, and make a new one if it got out.
      </Hint>
      {feed.isPending ? (
        <LoadingText>Loading calendar feed...</LoadingText>
      ) : feed.isError ? (
        <ErrorBanner
          message={errorMessage(feed.error, LOAD_CALENDAR_FEED_OPERATION)}
          onRetry={() => void feed.refetch()}
        />
      ) : feed.data === null || url === null ? (
        <div>
          <Button onClick={() => make(false)} disabled={regenerate.isPending}>
            {regenerate.isPending ? 'Creating address...' : 'Create calendar address'}
          </Button>
        </div>
      ) : (
        <>
          <CopyField
            // A new address is a new field: it takes the focus when it was just made.
            key={url}
            label="Calendar address"
            value={url}
            copyLabel="Copy address"
            onCopy={(copied) => setStatus(copyResult(copied, 'Address'))}
            focusOnMount={justMade}
          />
          <Hint>
            Times of day are in {feed.data.timeZone}, the time zone of the browser that made this
            address.{' '}
            <a href={url.replace(/^https?:/, 'webcal:')} className={linkClass}>
              Open in your calendar app
            </a>
          </Hint>
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" onClick={() => setConfirming('regenerate')}>
              Make a new address
            </Button>
            <Button variant="ghostDanger" onClick={() => setConfirming('remove')}>
              Turn off
            </Button>
          </div>
        </>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === 'remove' ? 'Turn off the calendar feed?' : 'Make a new address?'}
        confirmLabel={confirming === 'remove' ? 'Turn off' : 'Make a new address'}
        tone={confirming === 'remove' ? 'danger' : 'primary'}
        pending={confirming === 'remove' ? remove.isPending : regenerate.isPending}
        onConfirm={() => (confirming === 'remove' ? turnOff() : make(true))}
        onCancel={() => setConfirming(null)}
      >
        <p>
          {confirming === 'remove'
            ? 'The address stops working at once: calendar apps subscribed to it stop updating.'
            : 'The current address stops working at once: calendar apps subscribed to it stop updating until you add the new one.'}
        </p>
      </ConfirmDialog>
    </SettingsSection>
  );
}
