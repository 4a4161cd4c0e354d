import { expect, test } from '@playwright/test';
import { uniqueUsername } from '../support/fixtures';

/**
 * The whole life of a new user, through the UI only: register, groups, todos, filters, edit,
 * complete, delete, group deletion, statistics, theme, logout and login again.
 */
test('a new user organises their todos from registration to logging back in', async ({ page }) => {
  test.setTimeout(90_000);
  const username = uniqueUsername('journey');
  const password = 'lantern orchard 51';

  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('link', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: /create account|register/i }).click();
  await expect(page).toHaveURL(/\/todos$/);
  await expect(page.getByRole('button', { name: `Logout ${username}` })).toBeVisible();
  await expect(page.getByText('No todos yet. Add one above!')).toBeVisible();

  // Groups: Work (red) and Home (default blue).
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Groups' })
    .click();
  await expect(page.getByRole('heading', { name: 'Manage Groups' })).toBeVisible();
  await expect(page.getByText('No groups yet. Create one above.')).toBeVisible();
  await page.getByLabel('Group name').fill('Work');
  await page.getByTitle('Red').click();
  await expect(page.getByRole('radio', { name: /red/i })).toBeChecked();
  await page.getByRole('button', { name: 'Create Group' }).click();
  await expect(page.getByRole('list', { name: 'Groups' }).getByText('Work')).toBeVisible();
  await page.getByLabel('Group name').fill('Home');
  await page.getByRole('button', { name: 'Create Group' }).click();
  const groupNames = page.getByRole('list', { name: 'Groups' }).getByRole('listitem');
  await expect(groupNames).toHaveCount(2);
  await expect(groupNames.first()).toContainText('Home');

  // Todos in and out of groups.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Todos' }).click();
  const addTodo = async (title: string, group?: string, description?: string) => {
    await page.getByRole('button', { name: 'Add Todo' }).click();
    const form = page.getByRole('form', { name: 'New todo' });
    await form.getByLabel('Title').fill(title);
    if (description) await form.getByLabel('Description').fill(description);
    if (group) await form.getByLabel('Group').selectOption({ label: group });
    await form.getByRole('button', { name: 'Create Todo' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByRole('checkbox', { name: title })).toBeVisible();
  };
  await addTodo('Write report', 'Work', 'Quarterly numbers');
  await addTodo('Water plants', 'Home');
  await addTodo('Buy milk');

  const list = page.getByRole('list', { name: 'Todos' });
  await expect(list.getByRole('checkbox')).toHaveCount(3);
  // Newest first.
  await expect(list.getByRole('listitem').first()).toContainText('Buy milk');
  await expect(list.getByText('Quarterly numbers')).toBeVisible();

  // Filter tabs and counts.
  const tabs = page.getByRole('tablist', { name: 'Filter todos' });
  await expect(tabs.getByRole('tab', { name: 'All (3)' })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: 'No Group (1)' })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: 'Work (1)' })).toBeVisible();
  await tabs.getByRole('tab', { name: 'Work (1)' }).click();
  await expect(list.getByRole('checkbox')).toHaveCount(1);
  await expect(list.getByRole('checkbox', { name: 'Write report' })).toBeVisible();
  // The new-todo form defaults to the active group.
  await page.getByRole('button', { name: 'Add Todo' }).click();
  await expect(
    page.getByRole('form', { name: 'New todo' }).getByLabel('Group').locator('option:checked'),
  ).toHaveText('Work');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await tabs.getByRole('tab', { name: 'No Group (1)' }).click();
  await expect(list.getByRole('checkbox')).toHaveCount(1);
  await tabs.getByRole('tab', { name: /^All/ }).click();

  // Inline edit.
  await page.getByRole('button', { name: 'Edit Buy milk' }).click();
  const editForm = page.getByRole('form', { name: 'Edit todo Buy milk' });
  await editForm.getByLabel('Title').fill('Buy oat milk');
  await editForm.getByLabel('Group').selectOption({ label: 'Home' });
  await editForm.getByRole('button', { name: 'Save' }).click();
  await expect(list.getByRole('checkbox', { name: 'Buy oat milk' })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: 'Home (2)' })).toBeVisible();

  // Complete.
  await list.getByRole('checkbox', { name: 'Water plants' }).check();
  await expect(list.getByRole('checkbox', { name: 'Water plants' })).toBeChecked();
  // After a reload it is in the Completed part at the end, collapsed until opened.
  await page.reload();
  const completed = page.getByRole('button', { name: 'Completed (1)' });
  await expect(completed).toHaveAttribute('aria-expanded', 'false');
  await completed.click();
  await expect(
    page
      .getByRole('list', { name: 'Completed todos' })
      .getByRole('checkbox', { name: 'Water plants' }),
  ).toBeChecked();

  // Delete with the dialog.
  await page.getByRole('button', { name: 'Delete Write report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Delete' });
  await expect(dialog).toContainText('Are you sure you want to delete "Write report"?');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Delete Write report' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(list.getByRole('checkbox', { name: 'Write report' })).toHaveCount(0);
  await expect(tabs.getByRole('tab', { name: 'All (2)' })).toBeVisible();

  // Deleting a group leaves its todos ungrouped.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Groups' })
    .click();
  page.once('dialog', async (confirm) => {
    expect(confirm.message()).toBe('Delete this group? Todos will become ungrouped.');
    await confirm.accept();
  });
  await page.getByRole('button', { name: 'Delete Home' }).click();
  await expect(groupNames).toHaveCount(1);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Todos' }).click();
  await expect(tabs.getByRole('tab', { name: 'No Group (2)' })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: /^Home/ })).toHaveCount(0);

  // Statistics.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Stats' }).click();
  await expect(page.getByRole('heading', { name: 'Your Statistics' })).toBeVisible();
  await expect(page.getByText('Track your productivity and app usage')).toBeVisible();
  const allTime = page.getByRole('region', { name: 'All Time Statistics' });
  await expect(allTime.getByText('Todos Created')).toBeVisible();
  await expect(allTime).toContainText('+3 this week');
  await expect(allTime).toContainText('+2 this week'); // groups created
  const chart = page.getByRole('region', { name: /Daily activity, last 7 days/ });
  await expect(chart.getByRole('img')).toHaveCount(7);
  await page.getByRole('button', { name: '14 Days' }).click();
  await expect(page.getByRole('region', { name: /last 14 days/ }).getByRole('img')).toHaveCount(14);
  await page.getByRole('button', { name: '30 Days' }).click();
  await expect(page.getByRole('region', { name: /last 30 days/ }).getByRole('img')).toHaveCount(30);
  await expect(page.getByText(/Task Completion Rate/)).toBeVisible();
  await expect(page.getByText('33%')).toBeVisible();

  // The theme persists across a reload.
  const html = page.locator('html');
  const wasDark = ((await html.getAttribute('class')) ?? '').includes('dark');
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await expect(html).toHaveClass(wasDark ? /^(?!.*dark)/ : /dark/);
  await page.reload();
  await expect(html).toHaveClass(wasDark ? /^(?!.*dark)/ : /dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe(wasDark ? 'light' : 'dark');

  // Logout, then login.
  await page.getByRole('button', { name: `Logout ${username}` }).click();
  await expect(page).toHaveURL(/\/$|\/login$/);
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await page.goto('/todos');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid username or password');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/todos$/);
  await expect(
    page.getByRole('tablist', { name: 'Filter todos' }).getByRole('tab', { name: 'All (2)' }),
  ).toBeVisible();
});
