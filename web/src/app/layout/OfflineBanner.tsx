import { useConnection } from '#web/lib/online';
import { useQueuedWrites } from '#web/lib/outbox-count';
import { useSession } from '#web/lib/session-store';

const changes = (count: number) => `${count} change${count === 1 ? '' : 's'}`;

/** What the line starts with: which of the two ways the server is out of reach. */
const REASONS = {
  offline: 'You are offline',
  unreachable: 'The server cannot be reached',
} as const;

/**
 * The offline state (docs/product.md, Offline): a line under the navigation bar while the
 * browser is offline or the server does not answer (lib/online.ts), saying which, and while
 * changes made meanwhile wait to be sent; a status region, which screen readers read out when it
 * appears.
 */
export function OfflineBanner() {
  const connection = useConnection();
  const waiting = useQueuedWrites();
  const signedIn = useSession().token !== null;
  let text: string | null = null;
  if (connection !== 'online') {
    const when = connection === 'offline' ? 'when you are back online' : 'when it answers';
    text = signedIn
      ? `${REASONS[connection]}: showing your saved data. ${
          waiting > 0 ? `${changes(waiting)} will be sent` : 'Changes are kept and sent'
        } ${when}.`
      : `${REASONS[connection]}: signing in needs ${connection === 'offline' ? 'the network' : 'it'}.`;
  } else if (signedIn && waiting > 0) {
    text = `Sending ${changes(waiting)} made offline…`;
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
