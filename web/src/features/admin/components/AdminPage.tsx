import { plural, t, msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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

/** An audit log entry as one sentence per action, so that each language can order its words. */
function auditSentence(action: AdminAction, actor: string, target: string): string {
  switch (action) {
    case 'disable':
      return t`${actor} disabled ${target}`;
    case 'enable':
      return t`${actor} enabled ${target}`;
    case 'delete':
      return t`${actor} deleted ${target}`;
    case 'resend-verification':
      return t`${actor} resent the verification link of ${target}`;
    case 'end-sessions':
      return t`${actor} ended the sessions of ${target}`;
    case 'test-email':
      return t`${actor} sent a test e-mail ${target}`;
  }
}

/**
 * /admin, the operator's page (docs/product.md, Admin page): the accounts with what can be done
 * to them, the server's health with "Send a test e-mail", and the audit log of every action.
 * Anyone else sees the server's refusal.
 */
export function AdminPage() {
  const users = useAdminUsers();
  const { t } = useLingui();
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:py-8">
      <h1 className="mb-2 text-2xl font-semibold text-slate-900 dark:text-slate-100">
        <Trans>Admin</Trans>
      </h1>
      <p className={`mb-6 ${MUTED}`}>
        <Trans>
          The accounts of this Tally, the server&apos;s health and the audit log of every action
          taken here.
        </Trans>
      </p>
      {users.isPending ? (
        <LoadingText>{t`Loading...`}</LoadingText>
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
  const { t } = useLingui();
  const deletingName = deleting?.username;
  const count = users.length;

  return (
    <section aria-labelledby="admin-accounts" className={SECTION}>
      <h2 id="admin-accounts" className={HEADING}>
        <Trans>Accounts ({count})</Trans>
      </h2>
      <ul aria-label={t`Accounts`} className="divide-y divide-slate-200 dark:divide-slate-700">
        {users.map((user) => {
          const { username, email } = user;
          const created = formatMoment(user.createdAt);
          const lastSeen = user.lastSeenAt ? formatMoment(user.lastSeenAt) : null;
          return (
            <li key={user.id} className="flex flex-wrap items-start gap-3 py-3">
              {/* At phone width the buttons go under the text rather than squeeze it. */}
              <div className="min-w-0 flex-1 basis-64">
                <p className="font-medium break-words text-slate-900 dark:text-slate-100">
                  {user.username}
                  {user.operator && <Badge>{t`operator`}</Badge>}
                  {user.disabled && <Badge tone="danger">{t`disabled`}</Badge>}
                </p>
                <p className={`break-words ${MUTED}`}>
                  {user.email} · {user.emailVerified ? t`verified` : t`not verified`} ·{' '}
                  {user.twoFactor ? t`two-factor on` : t`two-factor off`}
                </p>
                <p className={MUTED}>
                  <Trans>
                    Created <time dateTime={user.createdAt}>{created}</time>
                  </Trans>{' '}
                  ·{' '}
                  {user.lastSeenAt && lastSeen ? (
                    <Trans>
                      last seen <time dateTime={user.lastSeenAt}>{lastSeen}</time>
                    </Trans>
                  ) : (
                    t`last seen never`
                  )}{' '}
                  · {plural(user.todoCount, { one: '# todo', other: '# todos' })}
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
                    aria-label={t`Enable ${username}`}
                    disabled={enable.isPending}
                    onClick={() => enable.mutate(user.id)}
                  >
                    <Trans>Enable</Trans>
                  </Button>
                ) : (
                  <Button
                    variant="secondary"
                    size="compact"
                    aria-label={t`Disable ${username}`}
                    disabled={disable.isPending}
                    onClick={() => disable.mutate(user.id)}
                  >
                    <Trans>Disable</Trans>
                  </Button>
                )}
                <Button
                  variant="secondary"
                  size="compact"
                  aria-label={t`End sessions of ${username}`}
                  disabled={endSessions.isPending}
                  onClick={() =>
                    endSessions.mutate(user.id, {
                      onSuccess: ({ ended }) =>
                        setDone({
                          id: user.id,
                          text: plural(ended, {
                            one: 'Ended # session.',
                            other: 'Ended # sessions.',
                          }),
                        }),
                    })
                  }
                >
                  <Trans>End sessions</Trans>
                </Button>
                {!user.emailVerified && (
                  <Button
                    variant="secondary"
                    size="compact"
                    aria-label={t`Resend verification to ${username}`}
                    disabled={resend.isPending}
                    onClick={() =>
                      resend.mutate(user.id, {
                        onSuccess: () =>
                          setDone({ id: user.id, text: t`Sent a new link to ${email}.` }),
                      })
                    }
                  >
                    <Trans>Resend verification</Trans>
                  </Button>
                )}
                <Button
                  variant="ghostDanger"
                  size="compact"
                  aria-label={t`Delete ${username}`}
                  onClick={() => setDeleting(user)}
                >
                  <Trans>Delete</Trans>
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title={t`Delete account`}
        confirmLabel={t`Delete account`}
        pending={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSettled: () => setDeleting(null) });
        }}
        onCancel={() => setDeleting(null)}
      >
        <p>
          <Trans>Delete {deletingName} and all their data for good? This cannot be undone.</Trans>
        </p>
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
    <span className={`ms-2 rounded px-1.5 py-0.5 align-middle text-xs font-medium ${colours}`}>
      {children}
    </span>
  );
}

/** A check's line: its state in words (never colour alone) and what it said. */
function Check({ label, check }: { label: string; check: { ok: boolean; detail: string } | null }) {
  const { t } = useLingui();
  return (
    <div className="flex flex-wrap gap-x-2 py-1">
      <dt className="w-28 shrink-0 font-medium sm:w-40 text-slate-900 dark:text-slate-100">
        {label}
      </dt>
      <dd className="min-w-0 flex-1 break-words text-slate-700 dark:text-slate-300">
        {check === null ? (
          t`Not configured`
        ) : (
          <>
            <span
              className={
                check.ok
                  ? 'font-medium text-green-800 dark:text-green-300'
                  : 'font-medium text-red-700 dark:text-red-300'
              }
            >
              {check.ok ? t`OK` : t`Failing`}
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
    ? backupLine(
        backup.last.name,
        formatMoment(backup.last.at),
        Math.ceil(backup.last.bytes / 1024),
      )
    : t`None yet`;

const backupLine = (name: string, at: string, kilobytes: number) =>
  t`${name}, ${at} (${kilobytes} KB)`;

function imapText(imap: AdminHealth['imap']): string {
  if (!imap) return t`Not configured`;
  const state = !imap.leaseHeld
    ? t`No process holds the fetcher`
    : !imap.here
      ? t`Another process holds the fetcher`
      : imap.connected
        ? t`Connected, this process holds the fetcher`
        : t`This process holds the fetcher, not connected`;
  const lastMail = imap.lastMailAt ? formatMoment(imap.lastMailAt) : null;
  const parts = [
    `${imap.ok ? t`OK` : t`Failing`} - ${state}`,
    lastMail ? t`last mail ${lastMail}` : t`last mail none yet`,
  ];
  if (imap.lastError) {
    const errorAt = formatMoment(imap.lastError.at);
    const { message } = imap.lastError;
    parts.push(t`last error ${errorAt}: ${message}`);
  }
  return parts.join(' · ');
}

const lagLine = (seconds: number) => t`${seconds} s (the oldest reminder due and not sent)`;

const scheduleLine = (schedule: string, keep: number) => t`${schedule} (keeps ${keep})`;

function HealthSection() {
  const health = useAdminHealth();
  const testEmail = useSendTestEmail();
  const { t } = useLingui();
  const sentTo = testEmail.data?.to;
  return (
    <section aria-labelledby="admin-health" className={SECTION}>
      <h2 id="admin-health" className={HEADING}>
        <Trans>Server health</Trans>
      </h2>
      {health.isPending ? (
        <LoadingText>{t`Loading...`}</LoadingText>
      ) : health.isError ? (
        <ErrorBanner
          message={errorMessage(health.error, LOAD_HEALTH_OPERATION)}
          onRetry={() => void health.refetch()}
        />
      ) : (
        <dl className="text-sm">
          <Check label={t`Database`} check={health.data.database} />
          <Check label="Redis" check={health.data.redis} />
          <Check label={t`Mail`} check={health.data.mail} />
          <Line label="IMAP">{imapText(health.data.imap)}</Line>
          <Line label={t`Job queue lag`}>
            {health.data.jobs.lagSeconds === 0
              ? t`None: no reminder is waiting`
              : lagLine(health.data.jobs.lagSeconds)}
          </Line>
          <Line label={t`Background jobs`}>
            {health.data.jobs.background.length === 0
              ? t`None has run yet`
              : health.data.jobs.background
                  .map(
                    (job) =>
                      `${job.name}: ${job.lastRunAt ? formatMoment(job.lastRunAt) : t`not yet`}`,
                  )
                  .join('; ')}
          </Line>
          <Line label={t`Last backup`}>{backupText(health.data.backup)}</Line>
          <Line label={t`Backup schedule`}>
            {health.data.backup.schedule
              ? scheduleLine(health.data.backup.schedule, health.data.backup.keep)
              : t`None (BACKUP_SCHEDULE is not set)`}
          </Line>
        </dl>
      )}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          disabled={testEmail.isPending}
          onClick={() => testEmail.mutate()}
        >
          <Trans>Send a test e-mail</Trans>
        </Button>
        {testEmail.isSuccess && (
          <p role="status" className="text-sm text-green-800 dark:text-green-300">
            <Trans>Sent to {sentTo}.</Trans>
          </p>
        )}
        {testEmail.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {errorMessage(testEmail.error, msg`Send test e-mail failed`)}
          </p>
        )}
      </div>
    </section>
  );
}

function AuditLogSection() {
  const log = useAuditLog();
  const { t } = useLingui();
  return (
    <section aria-labelledby="admin-audit-log" className={SECTION}>
      <h2 id="admin-audit-log" className={HEADING}>
        <Trans>Audit log</Trans>
      </h2>
      {log.isPending ? (
        <LoadingText>{t`Loading...`}</LoadingText>
      ) : log.isError ? (
        <ErrorBanner
          message={errorMessage(log.error, LOAD_AUDIT_LOG_OPERATION)}
          onRetry={() => void log.refetch()}
        />
      ) : log.data.length === 0 ? (
        <p className={MUTED}>
          <Trans>No admin action yet.</Trans>
        </p>
      ) : (
        <ol aria-label={t`Audit log`} className="grid gap-1 text-sm">
          {log.data.map((entry) => (
            <li key={entry.id} className="break-words text-slate-700 dark:text-slate-300">
              <time dateTime={entry.at} className="text-slate-600 dark:text-slate-400">
                {formatMoment(entry.at)}
              </time>
              {': '}
              {auditSentence(entry.action, entry.actor, entry.target ?? '').trim()}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
