import type { MessageDescriptor } from '@lingui/core';
import { Trans } from '@lingui/react/macro';
import type { UseQueryResult } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { cn } from '#web/lib/cn';
import { formatInstant } from '#web/lib/format-instant';

interface SettingsSectionProps {
  title: string;
  children: ReactNode;
  /** The announced result of the section's last action ("Password changed..."), if any. */
  status?: string | null;
  /** The red frame of the danger zone. */
  danger?: boolean;
  /** An anchor other sections link to (#api-tokens). */
  id?: string;
}

/** One card of /settings, named by its heading. */
export function SettingsSection({
  title,
  children,
  status = null,
  danger = false,
  id,
}: SettingsSectionProps) {
  const headingId = useId();
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={cn(
        'rounded-lg border bg-white p-4 shadow-sm sm:p-6 dark:bg-slate-900',
        danger ? 'border-red-300 dark:border-red-800' : 'border-slate-200 dark:border-slate-700',
      )}
    >
      <h2
        id={headingId}
        className={cn(
          'mb-4 text-lg font-semibold',
          danger ? 'text-red-800 dark:text-red-300' : 'text-slate-900 dark:text-slate-100',
        )}
      >
        {title}
      </h2>
      <div className="space-y-4">{children}</div>
      {/* Always there (empty without a result), so that screen readers notice new text. */}
      <p
        role="status"
        className="mt-4 text-sm font-medium text-green-800 empty:mt-0 dark:text-green-300"
      >
        {status}
      </p>
    </section>
  );
}

/** A sub-heading inside a section ("Change e-mail"). */
export function SubHeading({ children }: { children: ReactNode }) {
  return <h3 className="text-base font-semibold text-slate-900 dark:text-slate-100">{children}</h3>;
}

/** Explanatory text in a section. */
export function Hint({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <p id={id} className="text-sm text-slate-600 dark:text-slate-400">
      {children}
    </p>
  );
}

/** When something happened ("Last used 3 Mar 2026, 09:15"), or "never" for no instant. */
export function When({ label, instant }: { label: string; instant: string | null }) {
  return (
    <span>
      {label}{' '}
      {instant ? (
        <time dateTime={instant}>{formatInstant(instant)}</time>
      ) : (
        <span>
          <Trans>never</Trans>
        </span>
      )}
    </span>
  );
}

interface SettingsListProps<T> {
  /** The section's list as the server gave it. */
  query: UseQueryResult<T[]>;
  /** The list's accessible name ("API tokens"). */
  label: string;
  /** The announced line while it loads ("Loading API tokens..."). */
  loading: string;
  /** The failure's sentence when loading failed for no reason the server named. */
  loadOperation: MessageDescriptor;
  /** What shows for an empty list ("You have no API tokens."). */
  empty?: ReactNode;
  /** One `<li>` an item. */
  children: (item: T) => ReactNode;
}

/**
 * A list a section reads from the server (tokens, passkeys, sessions): the loading line, the
 * failure with Retry, the sentence for none, or the items one under another.
 */
export function SettingsList<T>({
  query,
  label,
  loading,
  loadOperation,
  empty,
  children,
}: SettingsListProps<T>) {
  if (query.isPending) return <LoadingText>{loading}</LoadingText>;
  if (query.isError) {
    return (
      <ErrorBanner
        message={errorMessage(query.error, loadOperation)}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (query.data.length === 0 && empty) return <Hint>{empty}</Hint>;
  return (
    <ul
      aria-label={label}
      className="divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-700 dark:border-slate-700"
    >
      {query.data.map(children)}
    </ul>
  );
}
