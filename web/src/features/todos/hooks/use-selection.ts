import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { Todo } from '@tally/contract';

export interface Selection {
  /** Selection mode: each row shows a checkbox to pick it. */
  selecting: boolean;
  selected: ReadonlySet<number>;
  /** Picks or unpicks one row; `range` picks every row from the last one picked to it. */
  onSelect: (todo: Todo, range: boolean) => void;
  setSelecting: (on: boolean) => void;
  /** Picks every row shown (at most `limit`). */
  selectAll: (limit: number) => void;
  clear: () => void;
}

/**
 * The rows picked for a bulk action, by todo id. `onSelect` keeps its identity, so rows (memoised)
 * render again only when their own checkbox changes; the rows shown are read through a ref.
 */
export function useSelection(shown: readonly Todo[]): Selection {
  const [selecting, setSelectingState] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const shownRef = useRef(shown);
  useLayoutEffect(() => {
    shownRef.current = shown;
  }, [shown]);
  const anchor = useRef<number | null>(null);

  const onSelect = useCallback((todo: Todo, range: boolean) => {
    setSelectingState(true);
    const rows = shownRef.current;
    const from = anchor.current === null ? -1 : rows.findIndex((t) => t.id === anchor.current);
    const to = rows.findIndex((t) => t.id === todo.id);
    setSelected((current) => {
      const next = new Set(current);
      if (range && from >= 0 && to >= 0) {
        for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
          const row = rows[i];
          if (row) next.add(row.id);
        }
      } else if (next.has(todo.id)) {
        next.delete(todo.id);
      } else {
        next.add(todo.id);
      }
      return next;
    });
    anchor.current = todo.id;
  }, []);

  const clear = useCallback(() => {
    setSelected(new Set());
    anchor.current = null;
  }, []);

  const setSelecting = useCallback(
    (on: boolean) => {
      setSelectingState(on);
      if (!on) clear();
    },
    [clear],
  );

  const selectAll = useCallback((limit: number) => {
    setSelected(new Set(shownRef.current.slice(0, limit).map((todo) => todo.id)));
  }, []);

  return { selecting, selected, onSelect, setSelecting, selectAll, clear };
}
