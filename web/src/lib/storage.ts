/** The browser storage keys (docs/product.md, Sessions). */
export const STORAGE_KEYS = {
  token: 'token',
  username: 'username',
  theme: 'theme',
  /** /todos's Hide completed switch ('1' on). */
  hideCompleted: 'hideCompleted',
  /** /todos's Completed part shown open ('1'); collapsed otherwise (decision 087). */
  completedOpen: 'completedOpen',
  /** The ids of the parents whose subtasks /todos hides (a JSON array). */
  collapsedParents: 'collapsedParents',
  /** A logout whose request failed: the refresh cookie still has to be revoked. */
  logoutPending: 'logoutPending',
  /**
   * When the last reminder shown as a notice went out (ISO 8601): in localStorage the last any
   * tab showed (where a new tab starts), in sessionStorage the last this tab showed.
   */
  reminderSeen: 'reminderSeen',
  /** The language chosen in Settings (a BCP 47 tag); empty or absent: the browser's. */
  language: 'language',
  /**
   * In sessionStorage: this tab's last session was ended for the person ('1'), so the login
   * screen still says why after a reload.
   */
  sessionEnded: 'sessionEnded',
} as const;

/** localStorage that never throws (private mode, disabled storage, quota). */
export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage unavailable: the value lives for this page only.
  }
}

export function removeStorage(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing to remove.
  }
}

/** This tab's sessionStorage (it outlives a reload of the tab only), never throwing. */
export const tabStorage = {
  read(key: string): string | null {
    try {
      return window.sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  write(key: string, value: string): void {
    try {
      window.sessionStorage.setItem(key, value);
    } catch {
      // Storage unavailable: the value lives for this page only.
    }
  },
  remove(key: string): void {
    try {
      window.sessionStorage.removeItem(key);
    } catch {
      // Nothing to remove.
    }
  },
};
