import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiPost, registerViaApi, setTheme, signInWithStorage } from '../support/fixtures';

/**
 * The daily loop's second pass: capture with feedback (what quick add understood shows as the
 * person types, with suggestions for #groups and @tags). Each case failed before its change.
 */

const screenshotDir =
  process.env.SHOTS_DIR ?? path.resolve(import.meta.dirname, '..', 'screenshots');

const WIDTHS = [
  [390, 844],
  [1280, 800],
] as const;

const list = (page: Page) => page.getByRole('list', { name: 'Todos' });
const quickAdd = (page: Page) => page.getByRole('combobox', { name: 'Quick add a todo' });
const understood = (page: Page) =>
  page.getByRole('form', { name: 'Quick add' }).getByRole('list', { name: 'Quick add understood' });

test.describe('capture with feedback', () => {
  test('the placeholder example works on a new account, its chips shown before Enter', async ({
    page,
  }) => {
    const user = await registerViaApi(page.request, 'capture');
    await signInWithStorage(page, user);
    const field = quickAdd(page);
    const example = (await field.getAttribute('placeholder'))?.replace(/^Quick add: /, '') ?? '';
    expect(example).toBe('Pay rent tomorrow 9:00 #Home @bills p1 every month');
    await field.click();
    await field.pressSequentially(example);
    const chips = understood(page);
    for (const chip of ['Date', 'Time', 'Repeat', 'Tag', 'Priority']) {
      await expect(chips.getByText(chip, { exact: true })).toBeVisible();
    }
    await expect(chips).toContainText('Tomorrow');
    await expect(chips).toContainText('bills');
    // No group "Home" yet: it says so and offers to create it.
    await page.getByRole('button', { name: 'Create group Home' }).click();
    await expect(chips.getByText('Group', { exact: true })).toBeVisible();
    await expect(page.getByText('Saved as “Pay rent”')).toBeVisible();
    await field.press('Enter');
    const row = list(page).getByRole('listitem').filter({ hasText: 'Pay rent' });
    await expect(row).toContainText('Home');
    await expect(row).toContainText('bills');
    await expect(row).toContainText('Tomorrow');
    await expect(field).toHaveValue('');
    await expect(field).toBeFocused();
  });

  test('# and @ offer groups and tags as a listbox: arrows, Tab, Enter and Escape', async ({
    page,
  }) => {
    const user = await registerViaApi(page.request, 'suggest');
    for (const name of ['Home', 'Health']) {
      await apiPost(page.request, user, '/api/todo-groups', { name, color: '#3B82F6' });
    }
    await apiPost(page.request, user, '/api/todos', { title: 'Old', tags: ['bills', 'books'] });
    await signInWithStorage(page, user);
    const field = quickAdd(page);
    await field.click();
    await field.pressSequentially('Book the dentist #H');
    await expect(field).toHaveAttribute('aria-expanded', 'true');
    const groups = page.getByRole('listbox', { name: 'Groups' });
    await expect(groups.getByRole('option')).toHaveText(['Health', 'Home', 'Create group H']);
    await expect(groups.getByRole('option', { name: 'Health' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await field.press('ArrowDown');
    await expect(groups.getByRole('option', { name: 'Home' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await field.press('Tab');
    await expect(field).toHaveValue('Book the dentist #Home ');
    await expect(field).toBeFocused();
    await expect(groups).toBeHidden();
    await field.pressSequentially('@b');
    const tags = page.getByRole('listbox', { name: 'Tags' });
    await expect(tags.getByRole('option')).toHaveText(['@bills', '@books']);
    await field.press('Escape');
    await expect(tags).toBeHidden();
    await expect(field).toBeFocused();
    await field.pressSequentially('o');
    await field.press('Enter');
    await expect(field).toHaveValue('Book the dentist #Home @books ');
    await expect(understood(page)).toContainText('Home');
    await field.press('Enter');
    const row = list(page).getByRole('listitem').filter({ hasText: 'Book the dentist' });
    await expect(row).toContainText('Home');
    await expect(row).toContainText('books');
  });

  test('an unknown #Name in the listbox creates the group with Enter', async ({ page }) => {
    const user = await registerViaApi(page.request, 'newgroup');
    await signInWithStorage(page, user);
    const field = quickAdd(page);
    await field.click();
    await field.pressSequentially('Plant bulbs #Garden');
    await expect(page.getByRole('option', { name: 'Create group Garden' })).toBeVisible();
    await field.press('Enter');
    await expect(field).toHaveValue('Plant bulbs #Garden ');
    await expect(understood(page)).toContainText('Garden');
    await expect(page.getByRole('tab', { name: /Garden/ })).toBeVisible();
  });

  test('ordinary words stay; only the date read leaves the title, and its chip says which', async ({
    page,
  }) => {
    const user = await registerViaApi(page.request, 'words');
    await signInWithStorage(page, user);
    const field = quickAdd(page);
    await field.click();
    for (const title of [
      'Ask Sunday school about volunteering',
      'Send notes from the 9:00 standup',
      'Today view capture test',
    ]) {
      await field.fill(title);
      await expect(understood(page)).toBeHidden();
      await field.press('Enter');
      await expect(list(page).getByRole('checkbox', { name: title, exact: true })).toBeVisible();
      await expect(field).toHaveValue('');
    }
    await field.fill('Call mom tomorrow about the trip');
    await expect(understood(page)).toContainText('Tomorrow');
    await expect(page.getByText('Saved as “Call mom about the trip”')).toBeVisible();
    await page.getByRole('button', { name: 'Remove date Tomorrow' }).click();
    await expect(understood(page)).toBeHidden();
    await expect(field).toBeFocused();
    await field.press('Enter');
    const kept = list(page).getByRole('listitem').filter({ hasText: 'Call mom tomorrow about' });
    await expect(kept).not.toContainText('Tomorrow');
    // A start date is read after "starts" and shown as its own chip.
    await field.fill('Plan the trip starts tomorrow');
    await expect(understood(page)).toContainText('Start');
    await expect(page.getByText('Saved as “Plan the trip”')).toBeVisible();
  });

  test('screenshots: quick add with chips and suggestions, phone and desktop, light and dark', async ({
    page,
  }) => {
    const user = await registerViaApi(page.request, 'chipshots');
    await apiPost(page.request, user, '/api/todo-groups', { name: 'Home', color: '#84CC16' });
    await signInWithStorage(page, user);
    mkdirSync(screenshotDir, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      for (const [width, height] of WIDTHS) {
        await page.setViewportSize({ width, height });
        const field = quickAdd(page);
        await field.fill('Pay rent tomorrow 9:00 @bills p1 every month #');
        await field.press('End');
        await expect(page.getByRole('listbox', { name: 'Groups' })).toBeVisible();
        await expect(understood(page)).toContainText('Tomorrow');
        await page.screenshot({
          path: path.join(screenshotDir, `loop-quick-add-${theme}-${width}.png`),
        });
        await field.fill('');
      }
    }
  });
});
