import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { activateLanguage } from '#web/lib/i18n';
import { clearNotices } from '#web/lib/notices';
import { setServerReachable } from '#web/lib/online';
import { loadSessionFromStorage } from '#web/lib/session-store';
import { installDialogPolyfill } from './dialog-polyfill';
import { consoleErrors } from './console-guard';
import { installMatchMedia, resetSystemTheme } from './match-media';

installDialogPolyfill();
installMatchMedia();
// jsdom lays nothing out and does not scroll; the virtualised todo list (features/todos,
// TodoList.tsx) sets the window's scroll position when it mounts.
window.scrollTo = () => undefined;

// Screens are lazy chunks: their first import, on a busy 2-core CI machine, can take longer than
// Testing Library's default second. Waiting longer changes no assertion, only how long a find
// may wait before it fails.
configure({ asyncUtilTimeout: 15_000 });

// Dates and times as a British browser writes them (lib/date-format follows navigator.language):
// "Mon 4 Dec", a 24-hour "09:30". lib/date-format.test.ts covers other locales.
Object.defineProperty(window.navigator, 'language', { value: 'en-GB', configurable: true });

// Components read their texts from the English catalog, as a browser set to English does.
await activateLanguage('en');

beforeEach(() => {
  consoleErrors.length = 0;
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
  window.history.replaceState(null, '', '/');
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.documentElement.className = '';
  loadSessionFromStorage({ atStart: true });
  clearNotices();
  // A test whose server stopped answering leaves the next one a server that answers.
  setServerReachable(true);
  resetSystemTheme();
  // An unexpected console.error fails the test (React warnings, act() misuse, jsdom errors).
  if (consoleErrors.length > 0) {
    const messages = consoleErrors.map((args) => args.map(String).join(' ')).join('\n');
    consoleErrors.length = 0;
    throw new Error(`Unexpected console.error:\n${messages}`);
  }
});
