import { createElement, lazy, type ComponentType } from 'react';

/**
 * A screen whose code can be loaded ahead of its first opening (`preload`). A lazy screen opened
 * before its code is there suspends: "Loading..." shows, and React then holds the screen back for
 * a while after that fallback (it throttles reveals); a screen loaded ahead renders in the very
 * render its route starts, without suspending. A preload that fails (offline) leaves the screen
 * lazy: opening it loads its code again.
 */
export function preloadable(load: () => Promise<{ default: ComponentType }>) {
  let loaded: ComponentType | null = null;
  const Suspending = lazy(load);
  return {
    Screen: () => createElement(loaded ?? Suspending),
    preload: () =>
      load().then(
        (module) => {
          loaded = module.default;
        },
        () => undefined,
      ),
  };
}

/** The calendar, loaded when the browser is idle after sign-in (NavBar). */
export const calendarScreen = preloadable(() => import('./routes/calendar-route'));
