import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS, readStorage, removeStorage, writeStorage } from '#web/lib/storage';

export type ThemePreference = 'light' | 'dark' | 'system';
type ResolvedTheme = 'light' | 'dark';

interface ThemeState {
  preference: ThemePreference;
  resolved: ResolvedTheme;
}

const DARK_QUERY = '(prefers-color-scheme: dark)';
const listeners = new Set<() => void>();

function storedPreference(): ThemePreference {
  const stored = readStorage(STORAGE_KEYS.theme);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

function systemTheme(): ResolvedTheme {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches
    ? 'dark'
    : 'light';
}

function computeState(): ThemeState {
  const preference = storedPreference();
  return { preference, resolved: preference === 'system' ? systemTheme() : preference };
}

let state: ThemeState = computeState();

/** Puts the theme on <html> (Tailwind's dark variant keys on the class) and tells listeners. */
function refresh(): void {
  const next = computeState();
  const root = document.documentElement;
  root.classList.toggle('dark', next.resolved === 'dark');
  root.style.colorScheme = next.resolved;
  if (next.preference !== state.preference || next.resolved !== state.resolved) {
    state = next;
    listeners.forEach((listener) => listener());
  }
}

/** Saves light or dark; system drops the saved value to follow the OS (docs/product.md, Theme). */
export function setThemePreference(preference: ThemePreference): void {
  if (preference === 'system') removeStorage(STORAGE_KEYS.theme);
  else writeStorage(STORAGE_KEYS.theme, preference);
  refresh();
}

/** The toggle: switches between light and dark and saves the choice. */
export function toggleTheme(): void {
  setThemePreference(state.resolved === 'dark' ? 'light' : 'dark');
}

let media: MediaQueryList | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
    media?.addEventListener('change', refresh);
    window.addEventListener('storage', refresh);
    refresh();
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      media?.removeEventListener('change', refresh);
      media = null;
      window.removeEventListener('storage', refresh);
    }
  };
}

function getState(): ThemeState {
  return state;
}

export function useTheme(): ThemeState {
  return useSyncExternalStore(subscribe, getState, getState);
}
