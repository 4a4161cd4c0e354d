import { expect, test } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  screenshotScreen,
  signInWithStorage,
} from '../support/fixtures';

/**
 * Speed of use (docs/product.md, Row keys and Bulk changes): the row keys on /todos (j/k, Space,
 * e, Delete, x), selection mode's bulk bar (complete, move to a group, delete, Undo) and Hide
 * completed; axe, and
 * screenshots of selection mode in light and dark at 390 and 1280 px.
 */

test('row keys and bulk changes on /todos', async ({ page, request }) => {
  test.setTimeout(60_000);
  const user = await registerViaApi(request, 'bulk');
  await user.api.groups.create({ body: { name: 'Errands', color: '#10B981' } }).expectOk();
  for (const title of ['Post the letter', 'Buy milk', 'Call Bob', 'Water the plants']) {
    await user.api.todos.create({ body: { title } }).expectOk();
  }
  await signInWithStorage(page, user, '/todos');
  const list = page.getByRole('list', { name: 'Todos' });
  const row = (title: string) =>
    list
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: title, exact: true }) });
  await expect(row('Water the plants')).toHaveAttribute('aria-posinset', '1');
  await expect(row('Water the plants')).toHaveAttribute('aria-setsize', '4');

  // Keys: the list is one Tab stop; j/k move, Space completes, e edits, Delete asks.
  await row('Water the plants').focus();
  await page.keyboard.press('j');
  await expect(row('Call Bob')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByRole('checkbox', { name: 'Call Bob' })).toBeChecked();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('k');
  await expect(row('Call Bob')).toBeFocused();
  await page.keyboard.press('e');
  const edit = page.getByRole('form', { name: 'Edit todo Call Bob' });
  await expect(edit).toBeVisible();
  await edit.getByLabel('Title').press('Escape');
  await expect(edit).toBeHidden();
  await row('Buy milk').focus();
  await page.keyboard.press('Delete');
  const confirm = page.getByRole('dialog', { name: 'Confirm Delete' });
  await expect(confirm).toContainText('Are you sure you want to delete "Buy milk"?');
  await confirm.getByRole('button', { name: 'Cancel' }).click();

  // x picks rows: selection mode and its bar.
  await row('Water the plants').focus();
  await page.keyboard.press('x');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('x');
  const bar = page.getByRole('toolbar', { name: 'Selected todos' });
  await expect(bar).toContainText('2 selected');
  await expectNoSeriousA11yViolations(page, '/todos selection mode');

  // Each theme reloads the page: selection mode is set up again, by touch this time.
  await screenshotScreen(page, 'bulk-selection', async () => {
    if (!(await bar.isVisible())) {
      await page.getByRole('button', { name: 'Select', exact: true }).click();
      await page.getByRole('checkbox', { name: 'Select Water the plants' }).click();
      await page.getByRole('checkbox', { name: 'Select Buy milk' }).click();
    }
    await expect(bar).toContainText('2 selected');
  });
  await expect(bar).toContainText('2 selected');

  await bar.getByRole('button', { name: 'Complete' }).click();
  // Selection mode shows one control per row: a completed row says so instead.
  await expect(row('Water the plants')).toContainText('Completed');
  await expect(row('Buy milk')).toContainText('Completed');
  await expect(bar).toContainText('0 selected');

  await page.getByRole('checkbox', { name: 'Select Post the letter' }).click();
  await bar.getByRole('combobox', { name: 'Move to group' }).selectOption('Errands');
  await expect(page.getByRole('tab', { name: 'Errands (1)' })).toBeVisible();

  // Select all picks the rows the list shows: Call Bob, completed before the screenshots' reloads,
  // is in the collapsed Completed part until it is opened.
  await page.getByRole('button', { name: 'Completed (1)' }).click();
  await bar.getByRole('button', { name: 'Select all' }).click();
  await expect(bar).toContainText('4 selected');
  await bar.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No todos yet. Add one above!')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'All (0)' })).toBeVisible();
  const server = () => user.api.todos.list().expectOk();
  expect(await server()).toEqual([]);

  // Undo brings them all back from the trash, in their places.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('tab', { name: 'All (4)' })).toBeVisible();
  await expect(row('Water the plants')).toHaveAttribute('aria-posinset', '1');
  expect((await server()).map((todo) => todo.title)).toEqual([
    'Water the plants',
    'Call Bob',
    'Buy milk',
    'Post the letter',
  ]);

  // Hide completed: only open todos show, the tab counts stay those of all todos, and the
  // switch is remembered across a reload.
  const hide = page.getByRole('switch', { name: 'Hide completed' });
  await hide.click();
  await expect(hide).toBeChecked();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(row('Post the letter')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'All (4)' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Hide completed' })).toBeChecked();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await page.getByRole('switch', { name: 'Hide completed' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(4);
});
