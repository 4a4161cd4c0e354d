import { cn } from '#web/lib/cn';

/** An on/off switch (role="switch") with its words beside it, as every switch in the app looks. */
export function Switch({
  on,
  onChange,
  label,
  disabled,
  describedBy,
}: {
  on: boolean;
  onChange: (on: boolean) => void;
  label: string;
  disabled?: boolean;
  /** The id of a hint that says what the switch does. */
  describedBy?: string;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-describedby={describedBy}
      disabled={disabled}
      onClick={() => onChange(!on)}
      className="inline-flex min-h-11 items-center gap-2 rounded-md px-1 text-sm font-medium text-slate-800 sm:min-h-9 dark:text-slate-100"
    >
      <span
        aria-hidden="true"
        className={cn(
          'relative inline-block h-5 w-9 shrink-0 rounded-full border transition-colors',
          on
            ? 'border-blue-700 bg-blue-700 dark:border-blue-300 dark:bg-blue-300'
            : 'border-slate-500 bg-slate-200 dark:border-slate-400 dark:bg-slate-700',
        )}
      >
        <span
          className={cn(
            'absolute start-0.5 top-0.5 h-3.5 w-3.5 rounded-full bg-white transition-transform dark:bg-slate-950',
            on && 'translate-x-4 rtl:-translate-x-4',
            !on && 'dark:bg-slate-200',
          )}
        />
      </span>
      {label}
    </button>
  );
}
