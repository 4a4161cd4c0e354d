import { useCallback, useState } from 'react';
import { STORAGE_KEYS, readStorage, writeStorage } from '#web/lib/storage';

/** The stored ids, tolerating anything a hand or an old version may have left there. */
function readCollapsed(): ReadonlySet<number> {
  try {
    const value: unknown = JSON.parse(readStorage(STORAGE_KEYS.collapsedParents) ?? '[]');
    return new Set(Array.isArray(value) ? value.filter(Number.isInteger) : []);
  } catch {
    return new Set();
  }
}

/**
 * The parents whose subtasks the list hides, remembered in this browser (per device, not per
 * account), and the switch of one of them.
 */
export function useCollapsedParents(): [ReadonlySet<number>, (id: number) => void] {
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const toggle = useCallback((id: number) => {
    setCollapsed((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      writeStorage(STORAGE_KEYS.collapsedParents, JSON.stringify([...next]));
      return next;
    });
  }, []);
  return [collapsed, toggle];
}
