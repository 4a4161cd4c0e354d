import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateLanguage } from './i18n';
import { getNotices } from './notices';
import { expireSession } from './session-store';
import { makeToken, storeSession } from '#web/test/tokens';

afterEach(() => activateLanguage('en'));

/** The notices an expired session leaves, as a person reads them. */
function noticesAfterExpiry(token: string): string[] {
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  expireSession(token);
  return getNotices().map((notice) => notice.text);
}

describe('a session that expires says so in the language', () => {
  it('in English, exactly as docs/product.md words it', () => {
    expect(noticesAfterExpiry(storeSession('alice'))).toEqual(['Your session has expired']);
  });

  it('in German', async () => {
    await activateLanguage('de');
    expect(noticesAfterExpiry(storeSession('alice'))).toEqual(['Deine Sitzung ist abgelaufen']);
  });

  it('found expired when the app starts, in English and in Arabic', async () => {
    expect(noticesAfterExpiry(storeSession('alice', -60))).toEqual([
      'Session expired on app start',
    ]);
    await activateLanguage('ar');
    expect(noticesAfterExpiry(storeSession('bob', -60))).toContain(
      'انتهت صلاحية الجلسة عند بدء التطبيق',
    );
  });
});

/** The session store as a reloaded tab finds it: the module evaluated afresh. */
async function reloadedStore() {
  vi.resetModules();
  return import('./session-store');
}

describe('a session ended for the person, then the tab reloaded', () => {
  it('still tells the login screen why, until the next sign-in', async () => {
    const store = await reloadedStore();
    store.startSession(makeToken('alice', 900));
    store.endSession({ redirectToLogin: true });

    const afterReload = await reloadedStore();
    expect(afterReload.sessionEndedForcibly()).toBe(true);

    afterReload.startSession(makeToken('alice', 900));
    expect((await reloadedStore()).sessionEndedForcibly()).toBe(false);
  });

  it('says nothing after a logout the person chose', async () => {
    const store = await reloadedStore();
    store.startSession(makeToken('alice', 900));
    store.endSession({ redirectToLogin: true });
    store.startSession(makeToken('alice', 900));
    store.endSession();

    expect((await reloadedStore()).sessionEndedForcibly()).toBe(false);
  });
});
