import { createStore, del, get, keys, set, update, type UseStore } from 'idb-keyval';

/**
 * The browser's offline copy (docs/decisions/059-offline-and-installable.md): one IndexedDB
 * store holding, per signed-in user, the last data shown (`cache:<user>`) and the writes waiting
 * for the network (`outbox:<user>`). Where IndexedDB is missing (old browsers, private modes that
 * refuse it, jsdom) the same calls keep the values in memory for this page only; the saved data
 * is then not kept at all (a copy in memory would only repeat the query cache).
 */

let store: UseStore | null | undefined;
const memory = new Map<string, unknown>();

function idb(): UseStore | null {
  if (store === undefined) {
    store = typeof indexedDB === 'undefined' ? null : createStore('tally-offline', 'data');
  }
  return store;
}

/** Whether values outlive the page (IndexedDB is there). */
export const keepsOfflineData = () => idb() !== null;

export async function readOffline<T>(key: string): Promise<T | undefined> {
  const db = idb();
  if (!db) return memory.get(key) as T | undefined;
  try {
    return await get<T>(key, db);
  } catch {
    return undefined;
  }
}

/** Changes one value atomically (one IndexedDB transaction). */
export async function updateOffline<T>(
  key: string,
  change: (current: T | undefined) => T | undefined,
): Promise<void> {
  const db = idb();
  if (!db) {
    const next = change(memory.get(key) as T | undefined);
    if (next === undefined) memory.delete(key);
    else memory.set(key, next);
    return;
  }
  await update<T | undefined>(key, change, db);
}

/**
 * Replaces one value. One put, sent as soon as the store is open: a write started while the page
 * unloads (pagehide) still reaches the disk, where a read-then-write transaction is cut off after
 * its read (the saved copy then missed the last change, and an offline reload showed less).
 */
export async function writeOffline(key: string, value: unknown): Promise<void> {
  const db = idb();
  if (!db) {
    memory.set(key, value);
    return;
  }
  await set(key, value, db);
}

/** Deletes every stored value except those `keep` names. */
export async function clearOffline(keep: (key: string) => boolean = () => false): Promise<void> {
  const db = idb();
  if (!db) {
    for (const key of [...memory.keys()]) if (!keep(key)) memory.delete(key);
    return;
  }
  try {
    const stored = await keys<string>(db);
    await Promise.all(stored.filter((key) => !keep(String(key))).map((key) => del(key, db)));
  } catch {
    // Nothing stored, or storage refused: nothing to clear.
  }
}
