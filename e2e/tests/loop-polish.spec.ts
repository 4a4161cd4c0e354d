import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, setTheme, signInWithStorage, screenshotDir } from '../support/fixtures';

/**
 * The daily loop's small things only a browser shows: the detail view's due date is whole, and
 * the Undo toast leaves the last rows' controls reachable, on a phone and a desktop. Each case
 * failed before its fix.
 */

const WIDTHS = [
  [390, 844],
  [1280, 800],
] as const;

/**
 * How much narrower the date field is than its value needs: the same field laid out at its own
 * width beside it (0 or less when the whole date shows).
 */
const dateShortfall = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((field) => {
    const probe = field.cloneNode(true) as HTMLInputElement;
    probe.style.width = 'auto';
    probe.style.minWidth = '0';
    probe.style.flex = 'none';
    probe.style.position = 'absolute';
    probe.style.visibility = 'hidden';
    field.parentElement?.append(probe);
    const needed = probe.getBoundingClientRect().width;
    probe.remove();
    return needed - field.getBoundingClientRect().width;
  });

test('the detail view shows the whole due date, phone and desktop, light and dark', async ({
  page,
}) => {
  const user = await registerViaApi(page.request, 'datefit');
  await user.api.todos
    .create({
      body: {
        title: 'Renew passport',
        dueDate: '2026-11-29',
        dueTime: '09:30',
      },
    })
    .expectOk();
  await signInWithStorage(page, user);
  mkdirSync(screenshotDir, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      await page.getByRole('button', { name: 'Renew passport', exact: true }).click();
      const detail = page.getByRole('dialog', { name: 'Renew passport' });
      await expect(detail.getByLabel('Due date', { exact: true })).toHaveValue('2026-11-29');
      expect(await dateShortfall(page, 'Due date')).toBeLessThanOrEqual(0);
      expect(await dateShortfall(page, 'Time')).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: path.join(screenshotDir, `loop-detail-date-${theme}-${width}.png`),
      });
      await detail.getByRole('button', { name: 'Close' }).click();
      await expect(detail).toBeHidden();
    }
  }
});

/** The page's controls (in <main>) that the Undo toast covers, by their names. */
const coveredControls = (page: Page) =>
  page.evaluate(() => {
    const toast = document.querySelector('[data-testid="undo-toast"] > div');
    if (!toast) return ['no toast'];
    const t = toast.getBoundingClientRect();
    const controls = document.querySelectorAll<HTMLElement>(
      'main button, main input, main a, main select',
    );
    return Array.from(controls)
      .filter((control) => {
        const c = control.getBoundingClientRect();
        if (c.width === 0 || c.height === 0) return false;
        return c.left < t.right && c.right > t.left && c.top < t.bottom && c.bottom > t.top;
      })
      .map((control) => control.getAttribute('aria-label') ?? control.textContent ?? '');
  });

test('the Undo toast leaves the last rows’ controls uncovered, phone and desktop', async ({
  page,
}) => {
  const user = await registerViaApi(page.request, 'toastroom');
  for (let i = 1; i <= 24; i++) {
    await user.api.todos
      .create({
        body: {
          title: `Errand ${i}`,
          dueDate: '2026-12-01',
        },
      })
      .expectOk();
  }
  await signInWithStorage(page, user);
  const list = page.getByRole('list', { name: 'Todos' });
  await expect(list.getByRole('checkbox').first()).toBeVisible();
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    const first = list.getByRole('checkbox').first();
    await first.check();
    await expect(page.getByTestId('undo-toast')).toContainText('Completed "Errand');
    // The end of the page, where the last rows are: none of their controls is under the toast.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => coveredControls(page), { timeout: 3000 }).toEqual([]);
    await page.screenshot({ path: path.join(screenshotDir, `loop-toast-room-${width}.png`) });
    await page.getByTestId('undo-toast').getByRole('button', { name: 'Undo' }).click();
    await expect(first).not.toBeChecked();
    await page.evaluate(() => window.scrollTo(0, 0));
  }
});
