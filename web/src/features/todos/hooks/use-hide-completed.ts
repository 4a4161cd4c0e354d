import { useCallback, useState } from 'react';
import { STORAGE_KEYS, readStorage, removeStorage, writeStorage } from '#web/lib/storage';

/** A switch remembered in this browser (localStorage, '1' when on). */
function useStoredSwitch(key: string): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => readStorage(key) === '1');
  const change = useCallback(
    (next: boolean) => {
      setOn(next);
      if (next) writeStorage(key, '1');
      else removeStorage(key);
    },
    [key],
  );
  return [on, change];
}

/** The Hide completed switch, remembered in this browser. */
export const useHideCompleted = () => useStoredSwitch(STORAGE_KEYS.hideCompleted);

/** Whether the list's Completed part is open, remembered in this browser (not per account). */
export const useCompletedOpen = () => useStoredSwitch(STORAGE_KEYS.completedOpen);
