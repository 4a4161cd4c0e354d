import { useEffect } from 'react';

/** "Todos · Tally": each screen names itself in the tab and for screen readers. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Tally` : 'Tally';
  }, [title]);
}
