import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, setTheme, signInWithStorage, screenshotDir } from '../support/fixtures';

/**
 * The daily loop seen, on every screen: the focused row shows its ring, nothing is wider than a
 * phone or a tablet, and the header's links land at the top of the next page. Each case failed
 * before its fix.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const inDays = (days: number) => {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};

const list = (page: Page) => page.getByRole('list', { name: 'Todos' });

/** How far the page reaches past the window's right edge (0 when nothing sticks out). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The focused row's outline as drawn ("solid 2px" and its text), all a keyboard user sees. */
const focusedOutline = (page: Page) =>
  page.evaluate(() => {
    const row = document.activeElement;
    if (!(row instanceof HTMLElement) || !row.matches('li[data-index]')) return 'no row';
    const style = getComputedStyle(row);
    return `${style.outlineStyle} ${style.outlineWidth} ${row.textContent}`;
  });

test('the row that has the focus shows a ring, light and dark, phone and desktop', async ({
  page,
}) => {
  const user = await registerViaApi(page.request, 'ring');
  for (const title of ['Water plants', 'Pay rent', 'Call mum']) {
    await user.api.todos.create({ body: { title } }).expectOk();
  }
  await user.api.todos
    .create({
      body: {
        title: 'Renew passport',
        startDate: inDays(5),
      },
    })
    .expectOk();
  await signInWithStorage(page, user);
  await expect(list(page).getByRole('checkbox')).toHaveCount(3);
  mkdirSync(screenshotDir, { recursive: true });

  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height });
      // The list's first row, then one row down with the list's own key.
      await list(page).getByRole('listitem').first().focus();
      await page.keyboard.press('j');
      await expect.poll(() => focusedOutline(page)).toMatch(/^solid 2px .*Pay rent/);
      await page.screenshot({
        path: path.join(screenshotDir, `loop-focus-${theme}-${width}.png`),
      });
    }
  }
});

test('a phone never scrolls sideways, with "Show later todos" in the controls', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const user = await registerViaApi(page.request, 'phone');
  await user.api.todos.create({ body: { title: 'Water plants' } }).expectOk();
  await user.api.todos
    .create({
      body: {
        title: 'Renew passport',
        startDate: inDays(5),
      },
    })
    .expectOk();
  await signInWithStorage(page, user);
  await expect(page.getByRole('switch', { name: 'Show later todos' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Sort' }).selectOption('manual');
  await expect(page.getByRole('combobox', { name: 'Sort' })).toHaveValue('manual');
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  for (const control of [
    page.getByRole('switch', { name: 'Hide completed' }),
    page.getByRole('switch', { name: 'Show later todos' }),
    page.getByRole('combobox', { name: 'Sort' }),
    page.getByRole('button', { name: 'Select', exact: true }),
  ]) {
    const box = await control.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  }
});

test('six group tabs stay inside their column at 768 px', async ({ page }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  const user = await registerViaApi(page.request, 'tabs');
  const names = ['Household', 'Groceries', 'Paperwork', 'Garden work', 'Birthdays', 'Reading'];
  for (const name of names) {
    await user.api.groups.create({ body: { name, color: '#10B981' } }).expectOk();
  }
  await user.api.todos
    .create({
      body: {
        title: 'Renew passport',
        startDate: inDays(5),
      },
    })
    .expectOk();
  await user.api.todos.create({ body: { title: 'Water plants' } }).expectOk();
  await signInWithStorage(page, user);
  const tabs = page.getByRole('tablist', { name: 'Filter todos' });
  await expect(tabs.getByRole('tab')).toHaveCount(2 + names.length);
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  const last = await tabs.getByRole('tab', { name: /^Reading/ }).boundingBox();
  expect(last && last.x + last.width).toBeLessThanOrEqual(768);
});

test('the header links land at the top of the next page, the header in view', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const user = await registerViaApi(page.request, 'header');
  for (let n = 1; n <= 30; n += 1) {
    await user.api.todos.create({ body: { title: `Errand ${n}` } }).expectOk();
  }
  await signInWithStorage(page, user);
  await expect(list(page).getByRole('listitem').first()).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  const header = page.getByRole('banner');
  for (const [link, heading] of [
    [nav.getByRole('link', { name: 'Stats' }), 'Your Statistics'],
    [header.getByRole('link', { name: 'Settings' }), 'Settings'],
    [nav.getByRole('link', { name: 'Todos' }), 'Todos'],
  ] as const) {
    await link.click();
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeAttached();
    await expect(page.locator('main')).toBeFocused();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expect(header).toBeInViewport();
  }
});
