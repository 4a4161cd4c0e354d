import { createElement, lazy, type ComponentType } from 'react';

/**
 * A screen whose code can be loaded ahead of its first opening (`preload`). A lazy screen opened
 * before its code is there suspends: "Loading..." shows, and React then holds the screen back for
 * a while after that fallback (it throttles reveals); a screen loaded ahead renders in the very
 * render its route starts, without suspending.
 */
export function preloadable(load: () => Promise<{ default: ComponentType }>) {
  let loaded: ComponentType | null = null;
  let loading: Promise<void> | null = null;
  const preload = (): Promise<void> =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
      },
      () => {
        // Not downloaded (offline, a new release): opening the screen tries again.
        loading = null;
      },
    ));
  const Suspending = lazy(load);
  function Screen() {
    return loaded ? createElement(loaded) : <Suspending />;
  }
  return { Screen, preload };
}

/** The calendar: loaded while the browser is idle after sign-in, or when its link is pointed at. */
export const calendarScreen = preloadable(() => import('./routes/calendar-route'));

/** Runs `task` when the browser is idle (a second on, where it cannot say); returns the cancel. */
export function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task);
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(task, 1000);
  return () => window.clearTimeout(handle);
}
