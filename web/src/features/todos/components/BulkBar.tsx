import type { ReactNode } from 'react';

interface BulkBarProps {
  count: number;
  /** How many rows the tab shows: Select all picks them (up to the bulk limit). */
  shown: number;
  onSelectAll: () => void;
  onClear: () => void;
  onDone: () => void;
  /** The bulk actions (complete, reopen, move, delete). */
  children?: ReactNode;
}

/**
 * The bar of selection mode, kept in sight at the top of the screen while the list scrolls
 * (the bottom is where notices and Undo appear):
 * how many rows are picked, the bulk actions, Select all / Clear, and Done. Its buttons are 40 px
 * high, for a finger at phone width.
 */
export function BulkBar({ count, shown, onSelectAll, onClear, onDone, children }: BulkBarProps) {
  const button =
    'inline-flex min-h-10 items-center rounded-md px-3 text-sm font-medium ' +
    'text-slate-800 hover:bg-slate-100 disabled:opacity-60 dark:text-slate-100 dark:hover:bg-slate-800';
  return (
    <div
      role="toolbar"
      aria-label="Selected todos"
      className="sticky top-0 z-20 -mx-4 mb-3 border-b border-slate-300 bg-white/95 px-4 py-2 shadow-md backdrop-blur sm:mx-0 sm:rounded-lg sm:border dark:border-slate-600 dark:bg-slate-900/95"
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <p
          role="status"
          className="mr-auto text-sm font-semibold text-slate-900 dark:text-slate-100"
        >
          {count} selected
        </p>
        {children}
        {count < shown ? (
          <button type="button" className={button} onClick={onSelectAll}>
            Select all
          </button>
        ) : (
          <button type="button" className={button} onClick={onClear}>
            Clear
          </button>
        )}
        <button type="button" className={button} onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
