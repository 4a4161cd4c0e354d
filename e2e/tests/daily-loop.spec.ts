import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, signInWithStorage, type ApiUser } from '../support/fixtures';

/**
 * The daily loop: capture, scan, complete, undo. Each case failed before its fix.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const dateOf = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

const list = (page: Page) => page.getByRole('list', { name: 'Todos' });

async function withTodos(page: Page, titles: string[]): Promise<ApiUser> {
  const user = await registerViaApi(page.request, 'loop');
  for (const title of titles) await user.api.todos.create({ body: { title } }).expectOk();
  await signInWithStorage(page, user);
  await expect(list(page).getByRole('checkbox')).toHaveCount(titles.length);
  return user;
}

test('the title opens the detail view and only the checkbox completes', async ({ page }) => {
  await withTodos(page, ['Water plants']);
  await list(page).getByRole('button', { name: 'Water plants', exact: true }).click();
  const detail = page.getByRole('dialog', { name: 'Water plants' });
  await expect(detail).toBeVisible();
  await expect(detail.getByRole('textbox', { name: 'Title' })).toHaveValue('Water plants');
  await expect(page.getByRole('checkbox', { name: 'Water plants' })).not.toBeChecked();
  await detail.getByRole('button', { name: 'Close' }).click();
  await expect(detail).toBeHidden();
  await page.getByRole('checkbox', { name: 'Water plants' }).check();
  await expect(page.getByText('Completed "Water plants"')).toBeVisible();
});

test('selection mode shows one control per row', async ({ page }) => {
  await withTodos(page, ['Pay rent']);
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  const row = list(page).getByRole('listitem');
  await expect(row.getByRole('checkbox', { name: 'Select Pay rent' })).toBeVisible();
  await expect(row.getByRole('checkbox')).toHaveCount(1);
});

test('an edit of only the title offers Undo, which puts the title back', async ({ page }) => {
  await withTodos(page, ['Fix tap']);
  await page.getByRole('button', { name: 'Edit Fix tap' }).click();
  const form = page.getByRole('form', { name: 'Edit todo Fix tap' });
  await form.getByRole('textbox', { name: 'Title' }).fill('Fix the tap');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Renamed "Fix tap" to "Fix the tap"')).toBeVisible();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(list(page).getByRole('button', { name: 'Fix tap', exact: true })).toBeVisible();
});

test('Skip offers Undo, which puts the due date back', async ({ page }) => {
  const user = await registerViaApi(page.request, 'loop');
  const today = dateOf(new Date());
  const todo = await user.api.todos
    .create({
      body: {
        title: 'Stretch',
        dueDate: today,
        repeat: { every: 1, unit: 'day', from: 'due' },
      },
    })
    .expectOk();
  await signInWithStorage(page, user);
  await page.getByRole('button', { name: 'Skip Stretch' }).click();
  await expect(page.getByText(/^Stretch: skipped\. Next due/)).toBeVisible();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect
    .poll(async () => {
      const todos = await user.api.todos.list().expectOk();
      return todos.find((candidate) => candidate.id === todo.id)?.dueDate;
    })
    .toBe(today);
});

test('the list is one Tab stop, and a delete leaves the focus on the next row', async ({
  page,
}) => {
  await withTodos(page, ['One', 'Two', 'Three', 'Four', 'Five', 'Six']);
  const rows = list(page).getByRole('listitem');
  await rows.first().focus();
  // The next Tab leaves the list: the row's own controls are reached with → and ←.
  await page.keyboard.press('Tab');
  const inList = await page.evaluate(
    () => document.activeElement?.closest('ul[aria-label="Todos"]') !== null,
  );
  expect(inList).toBe(false);

  // Down to "Five" (newest first: Six, Five, ...), then Delete.
  await rows.first().focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Delete');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Deleted "Five"')).toBeVisible();
  await expect(page.locator(':focus')).toContainText('Four');
});

test('Escape closes the new-todo form', async ({ page }) => {
  await withTodos(page, ['Existing']);
  await page.getByRole('button', { name: 'Add Todo' }).click();
  await page.getByRole('textbox', { name: 'Title' }).fill('Half typed');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('textbox', { name: 'Title' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Add Todo' })).toBeFocused();
});

test('quick add starts "every day 8:00" typed at 15:56 tomorrow, not overdue', async ({ page }) => {
  const user = await registerViaApi(page.request, 'loop');
  // Yesterday at 15:56 in the browser (the token, issued now, is then still good).
  const now = new Date();
  await page.clock.install({
    time: new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 15, 56),
  });
  await signInWithStorage(page, user);
  await page.getByRole('button', { name: 'Add Todo' }).click();
  await page.getByRole('textbox', { name: 'Title' }).fill('Take vitamins every day 8:00');
  const understood = page.getByRole('list', { name: 'Quick add understood' });
  await expect(understood).toContainText('Tomorrow');
  await expect(understood).toContainText('08:00');
  await page.getByRole('button', { name: 'Create Todo' }).click();
  const row = list(page).getByRole('listitem').filter({ hasText: 'Take vitamins' });
  await expect(row).toContainText('Tomorrow');
  await expect(row).not.toContainText('Overdue');
});

test('the overdue mark follows the clock', async ({ page }) => {
  const user = await registerViaApi(page.request, 'loop');
  const now = new Date();
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 14, 59, 30);
  await user.api.todos
    .create({
      body: {
        title: 'Call the bank',
        dueDate: dateOf(start),
        dueTime: '15:00',
      },
    })
    .expectOk();
  await page.clock.install({ time: start });
  await signInWithStorage(page, user);
  const row = list(page).getByRole('listitem').filter({ hasText: 'Call the bank' });
  await expect(row).not.toContainText('Overdue');
  // 15:01:05: overdue since 15:01 (a timer every 60 s from 14:59:30 would wait until 15:01:30).
  await page.clock.runFor(95_000);
  await expect(row).toContainText('Overdue');
});

test('offline, a reload right after a change shows it', async ({ page, context }) => {
  await withTodos(page, ['Pay rent']);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await page.getByRole('button', { name: 'Add Todo' }).click();
  await page.getByRole('textbox', { name: 'Title' }).fill('Buy stamps');
  await page.getByRole('button', { name: 'Create Todo' }).click();
  await expect(list(page).getByRole('checkbox', { name: 'Buy stamps' })).toBeVisible();
  // At once: the copy used to be written a second after the change.
  await page.reload();
  await expect(list(page).getByRole('checkbox', { name: 'Buy stamps' })).toBeVisible();
  await context.setOffline(true);
  await page.reload();
  await expect(list(page).getByRole('checkbox', { name: 'Buy stamps' })).toBeVisible();
  await context.setOffline(false);
});

test('refusals are sentences beside their field, gone once it is edited', async ({ page }) => {
  const user = await withTodos(page, ['Water plants']);
  await user.api.groups.create({ body: { name: 'Errands', color: '#3B82F6' } }).expectOk();

  // A title the server refuses (the field's own limit taken off, as an old form would send).
  await page.getByRole('button', { name: 'Add Todo' }).click();
  const form = page.getByRole('form', { name: 'New todo' });
  const title = form.getByLabel('Title');
  await title.evaluate((input) => input.removeAttribute('maxlength'));
  await title.fill('x'.repeat(201));
  await form.getByRole('button', { name: 'Create Todo' }).click();
  await expect(title).toHaveAccessibleDescription(/^The title must be at most 200 characters\./);
  await expect(page.getByRole('region', { name: 'Notices' })).not.toContainText('title');
  await title.fill('Short enough');
  await expect(title).not.toHaveAttribute('aria-invalid');

  // A group name already taken, on create and on rename.
  await page.goto('/groups');
  const name = page.getByLabel('Group name');
  await name.fill('Errands');
  await page.getByRole('button', { name: 'Create Group' }).click();
  await expect(name).toHaveAccessibleDescription('You already have a group named "Errands".');
  await name.fill('Errands and more');
  await expect(name).toHaveAccessibleDescription('');
  await page.getByRole('button', { name: 'Create Group' }).click();
  await page.getByRole('button', { name: 'Edit Errands and more' }).click();
  const rename = page.getByLabel('Group name');
  await rename.fill('Errands');
  await page.getByRole('button', { name: 'Update Group' }).click();
  await expect(rename).toHaveAccessibleDescription('You already have a group named "Errands".');
});
