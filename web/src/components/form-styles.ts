/** Shared classes for labels and inputs (3:1 borders, AA text, visible focus in both themes). */
export const labelClass = 'block text-sm font-medium text-slate-800 dark:text-slate-200';

export const inputClass =
  'mt-1 block w-full rounded-md border border-slate-500 bg-white px-3 py-2 text-base ' +
  'text-slate-900 placeholder:text-slate-500 dark:bg-slate-950 dark:text-slate-100 ' +
  'dark:placeholder:text-slate-400';
