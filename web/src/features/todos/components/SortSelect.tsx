import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { TODO_SORTS, type TodoSort } from '@tally/contract/constants';

const LABELS: Record<TodoSort, MessageDescriptor> = {
  created: msg`Newest first`,
  due: msg`Due date`,
  priority: msg`Priority`,
  title: msg`Title`,
  manual: msg`Manual (drag, Alt+↑/↓)`,
};

interface SortSelectProps {
  value: TodoSort;
  onChange: (sort: TodoSort) => void;
}

/** The list's sort, remembered per view on the server (docs/product.md, Sorting). */
export function SortSelect({ value, onChange }: SortSelectProps) {
  const { i18n } = useLingui();
  return (
    <label className="flex shrink-0 items-center gap-2 text-sm text-slate-800 dark:text-slate-200">
      {/* The word is for screen readers only on a phone: the row has room for the choice. */}
      <span className="sr-only sm:not-sr-only">
        <Trans>Sort</Trans>
      </span>
      <select
        value={value}
        onChange={(event) => onChange(event.target.value as TodoSort)}
        // As wide as the chosen choice (as its longest where the browser cannot size it so).
        className="min-h-11 max-w-full field-sizing-content rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm sm:min-h-9 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      >
        {TODO_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {i18n._(LABELS[sort])}
          </option>
        ))}
      </select>
    </label>
  );
}
