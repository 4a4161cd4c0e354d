/** A matchMedia stand-in (jsdom has none) whose prefers-color-scheme the tests can flip. */
let systemDark = false;
const listeners = new Set<(event: MediaQueryListEvent) => void>();

export function installMatchMedia(): void {
  window.matchMedia = (query: string): MediaQueryList => {
    const isDarkQuery = query.includes('prefers-color-scheme: dark');
    return {
      get matches() {
        return isDarkQuery ? systemDark : false;
      },
      media: query,
      onchange: null,
      addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => {
        if (isDarkQuery) listeners.add(listener);
      },
      removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => {
        listeners.delete(listener);
      },
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => true,
    } as unknown as MediaQueryList;
  };
}

/** Changes the OS preference and tells the listeners, as the browser does. */
export function setSystemDark(dark: boolean): void {
  systemDark = dark;
  listeners.forEach((listener) =>
    listener({ matches: dark, media: '(prefers-color-scheme: dark)' } as MediaQueryListEvent),
  );
}

export function resetSystemTheme(): void {
  systemDark = false;
}
