import { useCallback, useState } from 'react';
import { STORAGE_KEYS, readStorage, removeStorage, writeStorage } from '#web/lib/storage';

/** The Hide completed switch, remembered in this browser (localStorage). */
export function useHideCompleted(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => readStorage(STORAGE_KEYS.hideCompleted) === '1');
  const change = useCallback((next: boolean) => {
    setOn(next);
    if (next) writeStorage(STORAGE_KEYS.hideCompleted, '1');
    else removeStorage(STORAGE_KEYS.hideCompleted);
  }, []);
  return [on, change];
}
