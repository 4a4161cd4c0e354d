import { memo } from 'react';
import { cn } from '#web/lib/cn';

/** Hide completed: a switch (role="switch"), remembered by its owner (hooks/use-hide-completed). */
export const HideCompletedSwitch = memo(function HideCompletedSwitch({
  on,
  onChange,
  label = 'Hide completed',
}: {
  on: boolean;
  onChange: (on: boolean) => void;
  /** The switch's words: the list's other switch, Show later todos, looks the same. */
  label?: string;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      onClick={() => onChange(!on)}
      className="inline-flex min-h-11 items-center gap-2 sm:min-h-9 rounded-md px-1 text-sm font-medium text-slate-800 dark:text-slate-100"
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
            'absolute top-0.5 left-0.5 h-3.5 w-3.5 rounded-full bg-white transition-transform dark:bg-slate-950',
            on && 'translate-x-4',
            !on && 'dark:bg-slate-200',
          )}
        />
      </span>
      {label}
    </button>
  );
});
