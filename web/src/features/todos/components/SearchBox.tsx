import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef } from 'react';
import { useCommand } from '#web/lib/commands';
import { SEARCH_QUERY_MAX } from '@tally/contract/constants';

interface SearchBoxProps {
  query: string;
  onQueryChange: (query: string) => void;
}

function SearchIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      aria-hidden="true"
      fill="none"
      className="pointer-events-none absolute top-1/2 start-2.5 -translate-y-1/2 sm:start-3 text-slate-500 dark:text-slate-400"
    >
      <circle cx="11" cy="11" r="6.5" stroke="currentColor" strokeWidth="2" />
      <path d="m16 16 4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/**
 * The /todos search box: `/` puts the focus here from anywhere on the screen (web/src/app/
 * use-shortcuts.ts), Escape clears it and leaves it.
 */
export function SearchBox({ query, onQueryChange }: SearchBoxProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  useCommand('focusSearch', () => inputRef.current?.focus());
  const { t } = useLingui();

  return (
    <div role="search" className="w-36 shrink-0 sm:w-64">
      <label htmlFor={inputId} className="sr-only">
        <Trans>Search todos</Trans>
      </label>
      <div className="relative">
        <SearchIcon />
        <input
          ref={inputRef}
          id={inputId}
          type="search"
          value={query}
          onChange={(event) => onQueryChange(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            // The browser's own Escape clears the box but keeps the focus: leave it as well.
            event.preventDefault();
            onQueryChange('');
            event.currentTarget.blur();
          }}
          placeholder={t`Search todos`}
          // A phone's box is narrower than the words in some languages: the whole of them on hover.
          title={t`Search todos`}
          maxLength={SEARCH_QUERY_MAX}
          autoComplete="off"
          enterKeyHint="search"
          aria-keyshortcuts="/"
          className={
            'block min-h-11 w-full rounded-md border border-slate-500 bg-white py-2 pe-2 ps-9 text-base sm:min-h-10 sm:pe-3 sm:ps-10 ' +
            'text-slate-900 placeholder:text-slate-600 dark:bg-slate-950 dark:text-slate-100 ' +
            'dark:placeholder:text-slate-400'
          }
        />
      </div>
    </div>
  );
}

/**
 * What a search found, said politely to screen readers and shown under the box: "3 todos
 * found", or while the server is still asked, the ones found so far.
 */
export function SearchStatus({
  active,
  count,
  searching,
  hidden = 0,
}: {
  /** A search is on (the query has words). */
  active: boolean;
  count: number;
  searching: boolean;
  /** Completed matches that Hide completed keeps out of the list: said, so none seem lost. */
  hidden?: number;
}) {
  let text = '';
  if (active) {
    text = searching
      ? plural(count, {
          one: '# todo found, searching for more...',
          other: '# todos found, searching for more...',
        })
      : plural(count, { one: '# todo found', other: '# todos found' });
    if (hidden > 0) {
      text += plural(hidden, {
        one: '; # completed match is hidden (Hide completed is on)',
        other: '; # completed matches are hidden (Hide completed is on)',
      });
    }
  }
  return (
    <p
      aria-live="polite"
      className={text ? 'mt-3 text-sm text-slate-700 dark:text-slate-300' : 'sr-only'}
    >
      {text}
    </p>
  );
}
