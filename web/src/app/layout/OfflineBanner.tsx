import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useConnection } from '#web/lib/online';
import { useQueuedWrites } from '#web/lib/outbox-count';
import { useSession } from '#web/lib/session-store';

/**
 * The offline state (docs/product.md, Offline): a line under the navigation bar while the
 * browser is offline or the server does not answer (lib/online.ts), saying which, and while
 * changes made meanwhile wait to be sent; a status region, which screen readers read out when it
 * appears. Each case is one whole sentence, so that every language can word it its own way.
 */
export function OfflineBanner() {
  const connection = useConnection();
  const waiting = useQueuedWrites();
  const signedIn = useSession().token !== null;
  const { t } = useLingui();
  let text: string | null = null;
  if (connection === 'offline') {
    if (!signedIn) text = t`You are offline: signing in needs the network.`;
    else if (waiting > 0) {
      text = plural(waiting, {
        one: 'You are offline: showing your saved data. # change will be sent when you are back online.',
        other:
          'You are offline: showing your saved data. # changes will be sent when you are back online.',
      });
    } else {
      text = t`You are offline: showing your saved data. Changes are kept and sent when you are back online.`;
    }
  } else if (connection === 'unreachable') {
    if (!signedIn) text = t`The server cannot be reached: signing in needs it.`;
    else if (waiting > 0) {
      text = plural(waiting, {
        one: 'The server cannot be reached: showing your saved data. # change will be sent when it answers.',
        other:
          'The server cannot be reached: showing your saved data. # changes will be sent when it answers.',
      });
    } else {
      text = t`The server cannot be reached: showing your saved data. Changes are kept and sent when it answers.`;
    }
  } else if (signedIn && waiting > 0) {
    text = plural(waiting, {
      one: 'Sending # change made offline…',
      other: 'Sending # changes made offline…',
    });
  }
  if (!text) return null;
  return (
    <p
      role="status"
      className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      {text}
    </p>
  );
}
