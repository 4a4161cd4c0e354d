import { useEffect, useState } from 'react';
import { Button } from '#web/components/Button';
import { errorMessage } from '#web/lib/api-client';
import { pushState, turnOffPush, turnOnPush, type PushState } from '../lib/push-device';
import { Hint, SettingsSection } from './SettingsSection';

const EXPLAIN: Record<Exclude<PushState, 'on' | 'off'>, string> = {
  unsupported:
    'This browser cannot receive reminders as notifications (it has no Web Push). Reminders still show in Tally while it is open.',
  'no-worker':
    'Reminders as notifications need Tally’s offline support, which is not running in this tab: reload the page, or open Tally from its installed app.',
  blocked:
    'Notifications are blocked for Tally in this browser. Allow them in the site settings (the icon beside the address), then come back here.',
};

/** Turning reminders by Web Push on or off for this browser. */
export function RemindersSection() {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

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
    try {
      const next = on ? await turnOnPush() : await turnOffPush();
      setState(next);
      if (next === 'on') setStatus('Reminders are on for this device.');
      else if (!on) setStatus('Reminders are off for this device.');
    } catch (failure) {
      setError(errorMessage(failure, on ? 'Turn on reminders' : 'Turn off reminders'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <SettingsSection title="Reminders" status={status}>
      <Hint>
        A todo with a due time can remind you at that time or a while before (choose it when you add
        or edit the todo). Turned on here, reminders arrive as notifications on this device, even
        when Tally is closed.
      </Hint>
      {state === null ? null : state === 'on' || state === 'off' ? (
        <div>
          <Button
            variant={state === 'on' ? 'secondary' : 'primary'}
            disabled={busy}
            onClick={() => void change(state === 'off')}
          >
            {state === 'on' ? 'Turn off on this device' : 'Turn on reminders on this device'}
          </Button>
        </div>
      ) : (
        <Hint>{EXPLAIN[state]}</Hint>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </SettingsSection>
  );
}
