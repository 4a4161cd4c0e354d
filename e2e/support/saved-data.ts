import type { Page } from '@playwright/test';
import type { ApiUser } from './fixtures';

/**
 * The user's saved data in the browser (web/src/lib/query-persistence.ts): what a reload without
 * the server shows.
 */

interface SavedCache {
  savedAt?: number;
  state?: { queries?: { queryHash: string; state: { data?: unknown } }[] };
}

const saved = (page: Page, user: ApiUser) =>
  page.evaluate(
    (name) =>
      new Promise<SavedCache | undefined>((resolve) => {
        const open = indexedDB.open('tally-offline');
        open.onerror = () => resolve(undefined);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('data')) return resolve(undefined);
          const get = db.transaction('data').objectStore('data').get(`cache:${name}`);
          get.onsuccess = () => resolve(get.result as SavedCache | undefined);
          get.onerror = () => resolve(undefined);
        };
      }),
    user.username.toLowerCase(),
  );

/** The saved list of todos, as titles and whether each is completed. */
export const savedTodos = async (page: Page, user: ApiUser) =>
  (
    ((await saved(page, user))?.state?.queries?.find((query) => query.queryHash === '["todos"]')
      ?.state.data ?? []) as { title: string; completed: boolean }[]
  ).map(({ title, completed }) => ({ title, completed }));

/** Whether the browser has saved the user's data yet. */
export const hasSavedData = async (page: Page, user: ApiUser) =>
  ((await saved(page, user))?.savedAt ?? 0) > 0;
