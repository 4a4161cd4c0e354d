/**
 * The selection bar's controls (BulkBar, BulkDetails): 44 px high on a phone (a finger), 36 px
 * from 640 px on (a pointer); their words never wrap.
 */
export const BAR_BUTTON =
  'inline-flex min-h-11 shrink-0 items-center rounded-md px-2.5 text-sm font-medium ' +
  'whitespace-nowrap disabled:opacity-60 sm:min-h-9 sm:px-1.5 ' +
  'text-slate-800 enabled:hover:bg-slate-100 dark:text-slate-100 dark:enabled:hover:bg-slate-800';
export const BAR_CONTROL =
  'min-h-11 shrink-0 rounded-md border border-slate-400 bg-white px-2 text-sm text-slate-800 ' +
  'disabled:opacity-60 sm:min-h-9 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100';
