import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { AccountSession } from '@tally/contract';
import { Button } from '#web/components/Button';
import { useEndOtherSessions } from '../api/end-other-sessions';
import { useEndSession } from '../api/end-session';
import { LOAD_SESSIONS_OPERATION, useSessions } from '../api/get-sessions';
import { describeDevice } from '../lib/device';
import { formatInstant } from '#web/lib/format-instant';
import { Hint, SettingsList, SettingsSection, When } from '#web/components/SettingsSection';

function SessionRow({
  session,
  onEnd,
  ending,
}: {
  session: AccountSession;
  onEnd: (session: AccountSession, device: string) => void;
  ending: boolean;
}) {
  const { t } = useLingui();
  const device = describeDevice(session.userAgent);
  const signedIn = formatInstant(session.createdAt);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900 dark:text-slate-100">
          {device}
          {session.current && (
            <span className="rounded-full bg-blue-100 px-2 py-0.5 text-xs font-semibold text-blue-800 dark:bg-blue-950 dark:text-blue-200">
              <Trans>This device</Trans>
            </span>
          )}
        </p>
        <p className="mt-0.5 flex flex-wrap gap-x-3 text-sm text-slate-600 dark:text-slate-400">
          <When label={t`Signed in`} instant={session.createdAt} />
          <When label={t`Last used`} instant={session.lastUsedAt} />
        </p>
      </div>
      {!session.current && (
        <Button
          variant="secondary"
          size="compact"
          onClick={() => onEnd(session, device)}
          disabled={ending}
          aria-label={t`End session: ${device}, signed in ${signedIn}`}
        >
          <Trans>End session</Trans>
        </Button>
      )}
    </li>
  );
}

/** The signed-in devices: this one marked; end one, or all the others. */
export function SessionsSection() {
  const { t } = useLingui();
  const sessions = useSessions();
  const endSession = useEndSession();
  const endOthers = useEndOtherSessions();
  const [status, setStatus] = useState<string | null>(null);

  const end = (session: AccountSession, device: string) => {
    setStatus(null);
    endSession.mutate(session.id, {
      onSuccess: () => setStatus(t`The session of ${device} has ended.`),
    });
  };

  const endAllOthers = () => {
    setStatus(null);
    endOthers.mutate(undefined, {
      onSuccess: () => setStatus(t`Every other session has ended.`),
    });
  };

  const others = sessions.data?.filter((session) => !session.current).length ?? 0;
  return (
    <SettingsSection title={t`Sessions`} status={status}>
      <Hint>
        <Trans>
          The devices signed in to your account. Ending a session signs that device out at once.
        </Trans>
      </Hint>
      <SettingsList
        query={sessions}
        label={t`Signed-in devices`}
        loading={t`Loading sessions...`}
        loadOperation={LOAD_SESSIONS_OPERATION}
      >
        {(session) => (
          <SessionRow
            key={session.id}
            session={session}
            onEnd={end}
            ending={endSession.isPending && endSession.variables === session.id}
          />
        )}
      </SettingsList>
      {sessions.isSuccess &&
        (others > 0 ? (
          <div>
            <Button variant="secondary" onClick={endAllOthers} disabled={endOthers.isPending}>
              {endOthers.isPending ? t`Ending sessions...` : t`End all other sessions`}
            </Button>
          </div>
        ) : (
          <Hint>
            <Trans>No other device is signed in.</Trans>
          </Hint>
        ))}
    </SettingsSection>
  );
}
