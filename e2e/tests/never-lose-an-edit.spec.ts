import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, request, test, type Page } from '@playwright/test';
import { apiAs } from '../support/api';
import {
  registerViaApi,
  setTheme,
  signInWithStorage,
  type ApiUser,
  screenshotDir,
} from '../support/fixtures';
import { hasSavedData } from '../support/saved-data';
import { e2ePort } from '../support/ports';

/**
 * Nothing typed is lost (docs/product.md, Title and checkbox; Offline): the detail view saves
 * what was typed however it is closed, with Undo; and a reload while the server is stopped, or
 * behind a proxy answering 502, shows the saved list at once and says the server cannot be
 * reached. Screenshots of both, on a phone (390×844) and a desktop (1280×800), light and dark,
 * go to the screenshot folder (SHOTS_DIR, support/fixtures.ts) as
 * edits-<screen>-<theme>-<width>.png.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

const list = (page: Page) => page.getByRole('list', { name: 'Todos' });

/** The user's todos as the server has them. */
async function serverTodos(user: ApiUser) {
  const todos = await user.api.todos.list().expectOk();
  return todos.map(({ title, description }) => ({ title, description }));
}

async function openDetail(page: Page, title: string) {
  await list(page).getByRole('button', { name: title, exact: true }).click();
  const detail = page.getByRole('dialog', { name: title });
  await expect(detail.getByRole('form', { name: `Edit todo ${title}` })).toBeVisible();
  return detail;
}

const CLOSES = {
  Escape: (page: Page) => page.keyboard.press('Escape'),
  Close: (page: Page) =>
    page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).click(),
  // The backdrop, left of the panel.
  'a click outside': (page: Page) => page.mouse.click(40, 400),
};

for (const [way, close] of Object.entries(CLOSES)) {
  test(`the detail view closed by ${way} keeps the description typed`, async ({ page }) => {
    const user = await registerViaApi(page.request, 'edits');
    await user.api.todos
      .create({
        body: {
          title: 'Water plants',
          description: 'The ferns',
        },
      })
      .expectOk();
    await signInWithStorage(page, user);
    const detail = await openDetail(page, 'Water plants');
    await detail.getByRole('textbox', { name: 'Description' }).fill('The ferns and the palm');
    await close(page);
    await expect(detail).toBeHidden();

    await expect
      .poll(() => serverTodos(user))
      .toEqual([{ title: 'Water plants', description: 'The ferns and the palm' }]);
    const reopened = await openDetail(page, 'Water plants');
    await expect(reopened.getByRole('textbox', { name: 'Description' })).toHaveValue(
      'The ferns and the palm',
    );
  });
}

test("Undo in the detail view's toast puts the description back", async ({ page }) => {
  const user = await registerViaApi(page.request, 'edits');
  await user.api.todos
    .create({
      body: {
        title: 'Water plants',
        description: 'The ferns',
      },
    })
    .expectOk();
  await signInWithStorage(page, user);
  const detail = await openDetail(page, 'Water plants');
  await detail.getByRole('textbox', { name: 'Description' }).fill('Only the palm');
  await page.keyboard.press('Escape');
  await expect(page.getByText('Changed the description of "Water plants"')).toBeVisible();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect
    .poll(() => serverTodos(user))
    .toEqual([{ title: 'Water plants', description: 'The ferns' }]);
  const reopened = await openDetail(page, 'Water plants');
  await expect(reopened.getByRole('textbox', { name: 'Description' })).toHaveValue('The ferns');

  // The detail view with something typed, at both sizes and in both themes.
  await reopened.getByRole('button', { name: 'Close', exact: true }).click();
  mkdirSync(screenshotDir, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      const shown = await openDetail(page, 'Water plants');
      await shown.getByRole('textbox', { name: 'Description' }).fill('The ferns, and the palm');
      await page.screenshot({
        path: path.join(screenshotDir, `edits-detail-${theme}-${viewport.width}.png`),
      });
      await page.keyboard.press('Escape');
      await expect(shown).toBeHidden();
    }
  }
});

/** A server of this test's own, on a port beside the suite's, that the test can stop. */
async function startOwnServer(): Promise<{ origin: string; stop: () => void }> {
  const port = e2ePort('restartedServer');
  const origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tally-e2e-stopped-')),
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
  };
  delete env.DATABASE_URL;
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
    env,
    stdio: 'ignore',
  });
  const context = await request.newContext({ baseURL: origin });
  const api = apiAs(context, null);
  await expect
    .poll(async () => (await api.system.health().catch(() => null))?.status() ?? 0, {
      timeout: 30_000,
    })
    .toBe(200);
  await context.dispose();
  return { origin, stop: () => void server.kill('SIGKILL') };
}

/** Signs in, shows the list and waits until the service worker runs the page and the list is saved. */
async function listSaved(page: Page, user: ApiUser, baseURL?: string) {
  if (baseURL) {
    await page.addInitScript(
      ({ token, username }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('username', username);
      },
      { token: user.token, username: user.username },
    );
    await page.goto(`${baseURL}/todos`);
  } else {
    await signInWithStorage(page, user);
  }
  await expect(list(page).getByRole('checkbox', { name: 'Pay rent' })).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await expect.poll(() => hasSavedData(page, user)).toBe(true);
}

/**
 * The saved list is on screen within a second of a reload, however the server fails: it is read
 * from IndexedDB before any call is answered (the several seconds a load waiting on a dead server
 * took before). The figure is printed for the record too.
 */
const SHOWN_AT_ONCE_MS = 1000;

/**
 * Reloads and answers how long after the navigation began the list was on screen, in ms, as the
 * page itself saw it (Playwright's own polling adds nothing).
 */
async function reloadUntilList(page: Page): Promise<number> {
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector('ul[aria-label="Todos"] input[type="checkbox"]')) return;
      Object.assign(window, { listShownAt: performance.now() });
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.reload({ waitUntil: 'commit' });
  await expect(list(page).getByRole('checkbox', { name: 'Pay rent' })).toBeVisible({
    timeout: 5000,
  });
  return page.evaluate(() => Math.round((window as { listShownAt?: number }).listShownAt ?? -1));
}

test('a reload with the server stopped shows the saved list at once, saying the server cannot be reached', async ({
  page,
}) => {
  const server = await startOwnServer();
  try {
    const api = await request.newContext({ baseURL: server.origin });
    const user = await registerViaApi(api, 'stopped');
    await user.api.todos.create({ body: { title: 'Pay rent' } }).expectOk();
    await api.dispose();
    await listSaved(page, user, server.origin);

    server.stop();
    const elapsed = await reloadUntilList(page);
    console.log(`Saved list on screen ${elapsed} ms after a reload with the server stopped`);
    expect(elapsed).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(SHOWN_AT_ONCE_MS);
    const banner = page.getByRole('status').filter({ hasText: 'cannot be reached' });
    await expect(banner).toHaveText(
      'The server cannot be reached: showing your saved data. Changes are kept and sent when it answers.',
    );
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByText('Loading...')).toHaveCount(0);
    // And the next reload, still without the server, shows it again.
    const again = await reloadUntilList(page);
    expect(again).toBeGreaterThan(0);
    expect(again).toBeLessThan(SHOWN_AT_ONCE_MS);
    await expect(banner).toBeVisible();
  } finally {
    server.stop();
  }
});

test('a reload behind a proxy answering 502 shows the saved list; a change made then arrives once', async ({
  page,
}) => {
  const user = await registerViaApi(page.request, 'proxy');
  await user.api.todos.create({ body: { title: 'Pay rent' } }).expectOk();
  await listSaved(page, user);

  let proxyDown = true;
  await page
    .context()
    .route('**/api/**', (route) =>
      proxyDown
        ? route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' })
        : route.fallback(),
    );
  const elapsed = await reloadUntilList(page);
  console.log(`Saved list on screen ${elapsed} ms after a reload behind a proxy answering 502`);
  expect(elapsed).toBeGreaterThan(0);
  expect(elapsed).toBeLessThan(SHOWN_AT_ONCE_MS);
  const banner = page.getByRole('status').filter({ hasText: 'cannot be reached' });
  await expect(banner).toContainText('The server cannot be reached: showing your saved data.');
  await expect(page.getByRole('alert')).toHaveCount(0);

  // Completed from the saved list, it goes to the Completed part at once (it was not seen open
  // in an answer of the server's).
  await list(page).getByRole('checkbox', { name: 'Pay rent' }).click();
  await expect(banner).toContainText('1 change will be sent when it answers.');

  mkdirSync(screenshotDir, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await expect(banner).toContainText('1 change will be sent when it answers.');
      await page.screenshot({
        path: path.join(screenshotDir, `edits-unreachable-${theme}-${viewport.width}.png`),
      });
    }
  }

  proxyDown = false;
  await expect(banner).toBeHidden({ timeout: 15_000 });
  await expect
    .poll(async () => {
      const todos = await user.api.todos.list().expectOk();
      return todos.map((t) => t.completed);
    })
    .toEqual([true]);
  // Once: the completion was counted one time.
  const totals = await user.api.statistics.total().expectOk();
  expect(totals.todosCompleted).toBe(1);
});
