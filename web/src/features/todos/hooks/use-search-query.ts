import { useCallback } from 'react';
import { useSearchParams } from 'wouter';

/**
 * The /todos search, kept in the address (?q=) so that it survives a reload and the palette can
 * open a search by link. Typing replaces the entry rather than adding one per letter.
 */
export function useSearchQuery(): [string, (query: string) => void] {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const setQuery = useCallback(
    (next: string) =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          if (next === '') updated.delete('q');
          else updated.set('q', next);
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [query, setQuery];
}
