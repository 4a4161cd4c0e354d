import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { Button } from '#web/components/Button';
import { errorMessage } from '#web/lib/api-client';
import { pushState, turnOffPush, turnOnPush, type PushState } from '../lib/push-device';
import { Hint, SettingsSection } from '#web/components/SettingsSection';

const EXPLAIN: Record<Exclude<PushState, 'on' | 'off'>, MessageDescriptor> = {
  unsupported: msg`This browser cannot receive reminders as notifications (it has no Web Push). Reminders still show in Tally while it is open.`,
  'no-worker': msg`Reminders as notifications need Tally’s offline support, which is not running in this tab: reload the page, or open Tally from its installed app.`,
  blocked: msg`Notifications are blocked for Tally in this browser. Allow them in the site settings (the icon beside the address), then come back here.`,
};

/**
 * The browser's permission question was closed without an answer: nothing changed, and the
 * button alone would not say why.
 */
const NOT_ANSWERED = msg`The browser’s question about notifications was closed without an answer, so reminders stay off. Press the button again and choose Allow, or allow notifications in the site settings (the icon beside the address).`;

/** Turning reminders by Web Push on or off for this browser. */
export function RemindersSection() {
  const { t, i18n } = useLingui();
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [unanswered, setUnanswered] = useState(false);

  useEffect(() => {
    let live = true;
    pushState().then(
      (found) => live && setState(found),
      () => live && setState('unsupported'),
    );
    return () => {
      live = false;
    };
  }, []);

  const change = async (on: boolean) => {
    setBusy(true);
    setStatus(null);
    setError(null);
    setUnanswered(false);
    try {
      const next = on ? await turnOnPush() : await turnOffPush();
      setState(next);
      setUnanswered(on && next === 'off');
      if (next === 'on') setStatus(t`Reminders are on for this device.`);
      else if (!on) setStatus(t`Reminders are off for this device.`);
    } catch (failure) {
      setError(
        errorMessage(failure, on ? msg`Turn on reminders failed` : msg`Turn off reminders failed`),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <SettingsSection title={t`Reminders`} status={status}>
      <Hint>
        <Trans>
          A todo with a due time can remind you at that time or a while before (choose it when you
          add or edit the todo). Turned on here, reminders arrive as notifications on this device,
          even when Tally is closed.
        </Trans>
      </Hint>
      {state === null ? null : state === 'on' || state === 'off' ? (
        <div>
          <Button
            variant={state === 'on' ? 'secondary' : 'primary'}
            disabled={busy}
            onClick={() => void change(state === 'off')}
          >
            {state === 'on' ? t`Turn off on this device` : t`Turn on reminders on this device`}
          </Button>
          {unanswered && (
            <p role="alert" className="mt-2 text-sm text-slate-700 dark:text-slate-300">
              {i18n._(NOT_ANSWERED)}
            </p>
          )}
        </div>
      ) : (
        <Hint>{i18n._(EXPLAIN[state])}</Hint>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </SettingsSection>
  );
}
