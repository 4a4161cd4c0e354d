import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import {
  registerViaApi,
  setTheme,
  signInWithStorage,
  type ApiUser,
  screenshotDir,
} from '../support/fixtures';

/**
 * Two browsers of one person change the same todo (docs/product.md, Versions and If-Match): the
 * one whose change started from an older version is shown what it is now beside what it typed,
 * and chooses; nothing is overwritten silently. Screenshots of the conflict, on a phone
 * (390×844) and a desktop (1280×800), light and dark, go to
 * the screenshot folder (SHOTS_DIR) as conflict-<theme>-<width>.png.
 */

async function serverTodo(user: ApiUser) {
  const [todo] = await user.api.todos.list().expectOk();
  return { title: todo?.title, dueDate: todo?.dueDate };
}

async function openDetail(page: Page, title: string) {
  await page
    .getByRole('list', { name: 'Todos' })
    .getByRole('button', { name: title, exact: true })
    .click();
  // The one dialog, by role alone: its heading follows a title saved meanwhile.
  const detail = page.getByRole('dialog');
  await expect(detail.getByRole('form', { name: `Edit todo ${title}` })).toBeVisible();
  return detail;
}

/** A second browser (its own storage, its own live stream) signed in as the same person. */
async function secondBrowser(browser: Browser, user: ApiUser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInWithStorage(page, user);
  return { context, page };
}

/**
 * A has begun changing the title when B changes the title and the due date and saves; A then
 * leaves the field. Answers A's conflict sentence beside the title.
 */
async function conflictBetweenTwoBrowsers(
  page: Page,
  browser: Browser,
  baseURL: string | undefined,
) {
  const user = await registerViaApi(page.request, 'conflict');
  await user.api.todos.create({ body: { title: 'Water plants' } }).expectOk();
  await signInWithStorage(page, user);
  const a = await openDetail(page, 'Water plants');
  await a.getByRole('textbox', { name: 'Title' }).fill('Water the palm');

  const b = await secondBrowser(browser, user, baseURL);
  const detailB = await openDetail(b.page, 'Water plants');
  await detailB.getByRole('textbox', { name: 'Title' }).fill('Water the ferns');
  await detailB.getByRole('textbox', { name: 'Due date' }).fill('2026-12-24');
  await detailB.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(detailB).toBeHidden();
  await expect
    .poll(() => serverTodo(user))
    .toEqual({ title: 'Water the ferns', dueDate: '2026-12-24' });
  await b.context.close();

  await page.keyboard.press('Tab');
  const alert = a.getByRole('alert');
  await expect(alert).toContainText(
    'the title is now “Water the ferns”; yours is “Water the palm”',
  );
  // The field A did not touch shows B's change; the one A typed keeps what A typed.
  await expect(a.getByRole('textbox', { name: 'Due date' })).toHaveValue('2026-12-24');
  await expect(a.getByRole('textbox', { name: 'Title' })).toHaveValue('Water the palm');
  return { user, detail: a, alert };
}

async function choose(alert: Locator, name: 'Keep mine' | 'Take theirs') {
  // Keyboard-reachable, as every control of the view.
  const button = alert.getByRole('button', { name });
  await button.focus();
  await button.press('Enter');
}

test('two browsers change one todo: Keep mine keeps my title and their due date', async ({
  page,
  browser,
  baseURL,
}) => {
  const { user, detail, alert } = await conflictBetweenTwoBrowsers(page, browser, baseURL);
  await choose(alert, 'Keep mine');
  await expect(alert).toBeHidden();
  await expect
    .poll(() => serverTodo(user))
    .toEqual({ title: 'Water the palm', dueDate: '2026-12-24' });
  await detail.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(detail).toBeHidden();
  await expect(
    page
      .getByRole('list', { name: 'Todos' })
      .getByRole('button', { name: 'Water the palm', exact: true }),
  ).toBeVisible();
});

test('two browsers change one todo: Take theirs leaves their title and due date', async ({
  page,
  browser,
  baseURL,
}) => {
  const { user, detail, alert } = await conflictBetweenTwoBrowsers(page, browser, baseURL);
  await choose(alert, 'Take theirs');
  await expect(alert).toBeHidden();
  await expect(detail.getByRole('textbox', { name: 'Title' })).toHaveValue('Water the ferns');
  await detail.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  expect(await serverTodo(user)).toEqual({
    title: 'Water the ferns',
    dueDate: '2026-12-24',
  });
});

test('the conflict, on a phone and a desktop, light and dark', async ({ page }) => {
  const user = await registerViaApi(page.request, 'conflict');
  const { id } = await user.api.todos
    .create({
      body: {
        title: 'Water plants',
      },
    })
    .expectOk();
  await signInWithStorage(page, user);
  mkdirSync(screenshotDir, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(viewport);
      const { title } = await serverTodo(user);
      const detail = await openDetail(page, title ?? '');
      await detail.getByRole('textbox', { name: 'Title' }).fill(`Mine at ${viewport.width}`);
      // Another device renames it meanwhile.
      await user.api.todos
        .patch({
          params: { id },
          body: { title: `Theirs at ${viewport.width}`, dueDate: '2026-12-24' },
        })
        .expectOk();
      await page.keyboard.press('Tab');
      const alert = detail.getByRole('alert');
      await expect(alert).toContainText(`yours is “Mine at ${viewport.width}”`);
      await alert.scrollIntoViewIfNeeded();
      await page.screenshot({
        path: path.join(screenshotDir, `conflict-${theme}-${viewport.width}.png`),
      });
      await alert.getByRole('button', { name: 'Take theirs' }).click();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();
    }
  }
});
