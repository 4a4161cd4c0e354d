import { describe, expect, it, vi } from 'vitest';
import { makeToken } from '#web/test/tokens';

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
