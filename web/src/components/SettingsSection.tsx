import { useId, type ReactNode } from 'react';
import { cn } from '#web/lib/cn';

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
