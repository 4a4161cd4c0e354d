import { useState, type ReactNode } from 'react';
import type { AdminAction, AdminHealth, AdminUser } from '@tally/contract';
import { Button } from '#web/components/Button';
import { ConfirmDialog } from '#web/components/ConfirmDialog';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { formatMoment } from '#web/lib/date-format';
import { useDeleteUser } from '../api/delete-user';
import { useDisableUser } from '../api/disable-user';
import { useEnableUser } from '../api/enable-user';
import { useEndUserSessions } from '../api/end-user-sessions';
import { LOAD_AUDIT_LOG_OPERATION, useAuditLog } from '../api/get-audit-log';
import { LOAD_HEALTH_OPERATION, useAdminHealth } from '../api/get-health';
import { LOAD_USERS_OPERATION, useAdminUsers } from '../api/get-users';
import { useResendUserVerification } from '../api/resend-user-verification';
import { useSendTestEmail } from '../api/send-test-email';

const SECTION =
  'rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900';
const HEADING = 'mb-3 text-lg font-semibold text-slate-900 dark:text-slate-100';
const MUTED = 'text-sm text-slate-600 dark:text-slate-400';

/** The audit log's words for each action. */
const ACTION_WORDS: Record<AdminAction, string> = {
  disable: 'disabled',
  enable: 'enabled',
  delete: 'deleted',
  'resend-verification': 'resent the verification link of',
  'end-sessions': 'ended the sessions of',
  'test-email': 'sent a test e-mail',
};

/**
 * /admin, the operator's page (docs/product.md, Admin page): the accounts with what can be done
 * to them, the server's health with "Send a test e-mail", and the audit log of every action.
 * Anyone else sees the server's refusal.
 */
export function AdminPage() {
  const users = useAdminUsers();
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:py-8">
      <h1 className="mb-2 text-2xl font-semibold text-slate-900 dark:text-slate-100">Admin</h1>
      <p className={`mb-6 ${MUTED}`}>
        The accounts of this Tally, the server&apos;s health and the audit log of every action taken
        here.
      </p>
      {users.isPending ? (
        <LoadingText>Loading...</LoadingText>
      ) : users.isError ? (
        <ErrorBanner
          message={errorMessage(users.error, LOAD_USERS_OPERATION)}
          onRetry={() => void users.refetch()}
        />
      ) : (
        <div className="grid gap-6">
          <UsersSection users={users.data} />
          <HealthSection />
          <AuditLogSection />
        </div>
      )}
    </div>
  );
}

function UsersSection({ users }: { users: AdminUser[] }) {
  const disable = useDisableUser();
  const enable = useEnableUser();
  const endSessions = useEndUserSessions();
  const resend = useResendUserVerification();
  const remove = useDeleteUser();
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const [done, setDone] = useState<{ id: number; text: string } | null>(null);

  return (
    <section aria-labelledby="admin-accounts" className={SECTION}>
      <h2 id="admin-accounts" className={HEADING}>
        Accounts ({users.length})
      </h2>
      <ul aria-label="Accounts" className="divide-y divide-slate-200 dark:divide-slate-700">
        {users.map((user) => (
          <li key={user.id} className="flex flex-wrap items-start gap-3 py-3">
            {/* At phone width the buttons go under the text rather than squeeze it. */}
            <div className="min-w-0 flex-1 basis-64">
              <p className="font-medium break-words text-slate-900 dark:text-slate-100">
                {user.username}
                {user.operator && <Badge>operator</Badge>}
                {user.disabled && <Badge tone="danger">disabled</Badge>}
              </p>
              <p className={`break-words ${MUTED}`}>
                {user.email} · {user.emailVerified ? 'verified' : 'not verified'} · two-factor{' '}
                {user.twoFactor ? 'on' : 'off'}
              </p>
              <p className={MUTED}>
                Created <time dateTime={user.createdAt}>{formatMoment(user.createdAt)}</time> · last
                seen{' '}
                {user.lastSeenAt ? (
                  <time dateTime={user.lastSeenAt}>{formatMoment(user.lastSeenAt)}</time>
                ) : (
                  'never'
                )}{' '}
                · {user.todoCount} {user.todoCount === 1 ? 'todo' : 'todos'}
              </p>
              {done?.id === user.id && (
                <p role="status" className="mt-1 text-sm text-green-800 dark:text-green-300">
                  {done.text}
                </p>
              )}
            </div>
            <div className="flex flex-wrap gap-2">
              {user.disabled ? (
                <Button
                  variant="secondary"
                  size="compact"
                  aria-label={`Enable ${user.username}`}
                  disabled={enable.isPending}
                  onClick={() => enable.mutate(user.id)}
                >
                  Enable
                </Button>
              ) : (
                <Button
                  variant="secondary"
                  size="compact"
                  aria-label={`Disable ${user.username}`}
                  disabled={disable.isPending}
                  onClick={() => disable.mutate(user.id)}
                >
                  Disable
                </Button>
              )}
              <Button
                variant="secondary"
                size="compact"
                aria-label={`End sessions of ${user.username}`}
                disabled={endSessions.isPending}
                onClick={() =>
                  endSessions.mutate(user.id, {
                    onSuccess: ({ ended }) =>
                      setDone({
                        id: user.id,
                        text: `Ended ${ended} ${ended === 1 ? 'session' : 'sessions'}.`,
                      }),
                  })
                }
              >
                End sessions
              </Button>
              {!user.emailVerified && (
                <Button
                  variant="secondary"
                  size="compact"
                  aria-label={`Resend verification to ${user.username}`}
                  disabled={resend.isPending}
                  onClick={() =>
                    resend.mutate(user.id, {
                      onSuccess: () =>
                        setDone({ id: user.id, text: `Sent a new link to ${user.email}.` }),
                    })
                  }
                >
                  Resend verification
                </Button>
              )}
              <Button
                variant="ghostDanger"
                size="compact"
                aria-label={`Delete ${user.username}`}
                onClick={() => setDeleting(user)}
              >
                Delete
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete account"
        confirmLabel="Delete account"
        pending={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSettled: () => setDeleting(null) });
        }}
        onCancel={() => setDeleting(null)}
      >
        <p>Delete {deleting?.username} and all their data for good? This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}

function Badge({ children, tone = 'info' }: { children: string; tone?: 'info' | 'danger' }) {
  const colours =
    tone === 'danger'
      ? 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200'
      : 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200';
  return (
    <span className={`ml-2 rounded px-1.5 py-0.5 align-middle text-xs font-medium ${colours}`}>
      {children}
    </span>
  );
}

/** A check's line: its state in words (never colour alone) and what it said. */
function Check({ label, check }: { label: string; check: { ok: boolean; detail: string } | null }) {
  return (
    <div className="flex flex-wrap gap-x-2 py-1">
      <dt className="w-28 shrink-0 font-medium sm:w-40 text-slate-900 dark:text-slate-100">
        {label}
      </dt>
      <dd className="min-w-0 flex-1 break-words text-slate-700 dark:text-slate-300">
        {check === null ? (
          'Not configured'
        ) : (
          <>
            <span
              className={
                check.ok
                  ? 'font-medium text-green-800 dark:text-green-300'
                  : 'font-medium text-red-700 dark:text-red-300'
              }
            >
              {check.ok ? 'OK' : 'Failing'}
            </span>
            {' - '}
            {check.detail}
          </>
        )}
      </dd>
    </div>
  );
}

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap gap-x-2 py-1">
      <dt className="w-28 shrink-0 font-medium sm:w-40 text-slate-900 dark:text-slate-100">
        {label}
      </dt>
      <dd className="min-w-0 flex-1 break-words text-slate-700 dark:text-slate-300">{children}</dd>
    </div>
  );
}

const backupText = (backup: AdminHealth['backup']) =>
  backup.last
    ? `${backup.last.name}, ${formatMoment(backup.last.at)} (${Math.ceil(backup.last.bytes / 1024)} KB)`
    : 'None yet';

function imapText(imap: AdminHealth['imap']): string {
  if (!imap) return 'Not configured';
  const state = !imap.leaseHeld
    ? 'No process holds the fetcher'
    : !imap.here
      ? 'Another process holds the fetcher'
      : imap.connected
        ? 'Connected, this process holds the fetcher'
        : 'This process holds the fetcher, not connected';
  const parts = [
    `${imap.ok ? 'OK' : 'Failing'} - ${state}`,
    `last mail ${imap.lastMailAt ? formatMoment(imap.lastMailAt) : 'none yet'}`,
  ];
  if (imap.lastError) {
    parts.push(`last error ${formatMoment(imap.lastError.at)}: ${imap.lastError.message}`);
  }
  return parts.join(' · ');
}

function HealthSection() {
  const health = useAdminHealth();
  const testEmail = useSendTestEmail();
  return (
    <section aria-labelledby="admin-health" className={SECTION}>
      <h2 id="admin-health" className={HEADING}>
        Server health
      </h2>
      {health.isPending ? (
        <LoadingText>Loading...</LoadingText>
      ) : health.isError ? (
        <ErrorBanner
          message={errorMessage(health.error, LOAD_HEALTH_OPERATION)}
          onRetry={() => void health.refetch()}
        />
      ) : (
        <dl className="text-sm">
          <Check label="Database" check={health.data.database} />
          <Check label="Redis" check={health.data.redis} />
          <Check label="Mail" check={health.data.mail} />
          <Line label="IMAP">{imapText(health.data.imap)}</Line>
          <Line label="Job queue lag">
            {health.data.jobs.lagSeconds === 0
              ? 'None: no reminder is waiting'
              : `${health.data.jobs.lagSeconds} s (the oldest reminder due and not sent)`}
          </Line>
          <Line label="Background jobs">
            {health.data.jobs.background.length === 0
              ? 'None has run yet'
              : health.data.jobs.background
                  .map(
                    (job) =>
                      `${job.name}: ${job.lastRunAt ? formatMoment(job.lastRunAt) : 'not yet'}`,
                  )
                  .join('; ')}
          </Line>
          <Line label="Last backup">{backupText(health.data.backup)}</Line>
          <Line label="Backup schedule">
            {health.data.backup.schedule
              ? `${health.data.backup.schedule} (keeps ${health.data.backup.keep})`
              : 'None (BACKUP_SCHEDULE is not set)'}
          </Line>
        </dl>
      )}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          disabled={testEmail.isPending}
          onClick={() => testEmail.mutate()}
        >
          Send a test e-mail
        </Button>
        {testEmail.isSuccess && (
          <p role="status" className="text-sm text-green-800 dark:text-green-300">
            Sent to {testEmail.data.to}.
          </p>
        )}
        {testEmail.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {errorMessage(testEmail.error, 'Send test e-mail')}
          </p>
        )}
      </div>
    </section>
  );
}

function AuditLogSection() {
  const log = useAuditLog();
  return (
    <section aria-labelledby="admin-audit-log" className={SECTION}>
      <h2 id="admin-audit-log" className={HEADING}>
        Audit log
      </h2>
      {log.isPending ? (
        <LoadingText>Loading...</LoadingText>
      ) : log.isError ? (
        <ErrorBanner
          message={errorMessage(log.error, LOAD_AUDIT_LOG_OPERATION)}
          onRetry={() => void log.refetch()}
        />
      ) : log.data.length === 0 ? (
        <p className={MUTED}>No admin action yet.</p>
      ) : (
        <ol aria-label="Audit log" className="grid gap-1 text-sm">
          {log.data.map((entry) => (
            <li key={entry.id} className="break-words text-slate-700 dark:text-slate-300">
              <time dateTime={entry.at} className="text-slate-600 dark:text-slate-400">
                {formatMoment(entry.at)}
              </time>
              {': '}
              {entry.actor} {ACTION_WORDS[entry.action]}
              {entry.target ? ` ${entry.target}` : ''}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
