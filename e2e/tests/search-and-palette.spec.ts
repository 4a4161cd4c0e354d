import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  setTheme,
  signInWithStorage,
  screenshotDir,
} from '../support/fixtures';

/**
 * Speed of use (docs/product.md, Search, Keyboard shortcuts, Command palette): the /todos search
 * box in the browser, the global keys, the `?` sheet and the Ctrl+K palette; axe, and
 * screenshots of each in light and dark at 390 and 1280 px.
 */

/** The titles the list shows, top to bottom. */
const listed = (page: Page) =>
  page
    .getByRole('list', { name: 'Todos' })
    .getByRole('checkbox')
    .evaluateAll((boxes) =>
      boxes.map((box) => (box as HTMLInputElement).labels?.[0]?.textContent ?? ''),
    );

/** Light and dark, phone and desktop, each set up by `open` (Escape closes it again). */
async function screenshots(page: Page, name: string, open: () => Promise<void>) {
  mkdirSync(screenshotDir, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await open();
      await page.screenshot({ path: path.join(screenshotDir, `${name}-${theme}-${width}.png`) });
      // Closes what `open` opened, so the next width opens it afresh.
      await page.keyboard.press('Escape');
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('search, the global keys, the shortcuts sheet and the command palette', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const user = await registerViaApi(request, 'find');
  await user.api.groups.create({ body: { name: 'Errands', color: '#10B981' } }).expectOk();
  await user.api.todos.create({ body: { title: 'Café au lait with Zoë' } }).expectOk();
  await user.api.todos
    .create({
      body: {
        title: 'Buy milk',
        description: 'For the CAFE downstairs',
      },
    })
    .expectOk();
  await user.api.todos.create({ body: { title: 'Call Bob' } }).expectOk();
  await signInWithStorage(page, user, '/todos');
  await expect(page.getByRole('list', { name: 'Todos' })).toBeVisible();

  // `/` focuses the search; it filters at once, case and accents aside, newest first.
  const search = page.getByRole('searchbox', { name: 'Search todos' });
  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  await page.keyboard.type('cafe');
  await expect.poll(() => listed(page)).toEqual(['Buy milk', 'Café au lait with Zoë']);
  await expect(page.getByText('2 todos found')).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/todos with a search');

  // The search is in the address: it survives a reload.
  await expect(page).toHaveURL(/\?q=cafe$/);
  await page.reload();
  await expect(search).toHaveValue('cafe');
  await expect.poll(() => listed(page)).toEqual(['Buy milk', 'Café au lait with Zoë']);
  await screenshots(page, 'todos-search', () => expect(search).toHaveValue('cafe'));

  // A todo the browser does not hold (added elsewhere after the list loaded): the server finds it.
  await user.api.todos.create({ body: { title: 'Crème brûlée, added in another tab' } }).expectOk();
  const asked = page.waitForResponse(
    (response) => response.url().includes('/api/todos?') && response.url().includes('q=creme'),
  );
  await search.fill('Crème');
  expect((await asked).status()).toBe(200);
  await expect.poll(() => listed(page)).toEqual(['Crème brûlée, added in another tab']);
  await expect(page.getByText('1 todo found')).toBeVisible();

  // Escape clears it and leaves it.
  await search.focus();
  await page.keyboard.press('Escape');
  await expect(search).toHaveValue('');
  await expect(search).not.toBeFocused();
  // All four: the one added elsewhere is in the list too (live updates brought it in).
  await expect.poll(() => listed(page)).toHaveLength(4);
  await page.reload();
  await expect.poll(() => listed(page)).toHaveLength(4);

  // n opens the new-todo form, the letter not typed into its title.
  await page.keyboard.press('n');
  const title = page.getByRole('form', { name: 'New todo' }).getByLabel('Title', { exact: true });
  await expect(title).toBeFocused();
  await expect(title).toHaveValue('');
  await page.getByRole('button', { name: 'Cancel' }).click();

  // ? shows the sheet.
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet.getByText('Open the command palette')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the shortcuts sheet');
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  const list = page.getByRole('list', { name: 'Todos' });
  await screenshots(page, 'shortcuts-sheet', async () => {
    await expect(list).toBeVisible();
    await page.locator('body').press('?');
    await expect(sheet).toBeVisible();
  });
  await page.keyboard.press('Escape');

  // Ctrl+K opens the palette, which finds screens, groups and todos, and goes where chosen.
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  const input = palette.getByRole('combobox', { name: 'Command or todo' });
  await expect(input).toBeFocused();
  await page.keyboard.type('zoe');
  await expect(palette.getByRole('option')).toHaveText(['Café au lait with Zoë']);
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();

  await page.keyboard.press('Control+k');
  await expectNoSeriousA11yViolations(page, 'the command palette');
  await page.keyboard.type('stat');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/statistics$/);
  await expect(page.getByRole('heading', { name: 'Your Statistics' })).toBeVisible();

  // g t and g g go to Todos and Groups.
  await page.keyboard.press('g');
  await page.keyboard.press('g');
  await expect(page.getByRole('heading', { name: 'Manage Groups' })).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('t');
  await expect(list).toBeVisible();

  await screenshots(page, 'command-palette', async () => {
    await expect(list).toBeVisible();
    await page.keyboard.press('Control+k');
    await expect(input).toBeFocused();
    await page.keyboard.type('e');
  });
});
