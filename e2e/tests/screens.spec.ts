import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  screenshotScreen,
  setTheme,
  signInWithStorage,
  screenshotDir,
} from '../support/fixtures';

/**
 * Every screen in light and dark: no serious or critical axe-core violations, and screenshots at
 * 390 px and 1280 px in the screenshot folder (SHOTS_DIR) for a person to look at.
 */

async function checkScreen(page: Page, name: string, ready: () => Promise<void>) {
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await ready();
    await expectNoSeriousA11yViolations(page, `${name} (${theme})`);
  }
  await screenshotScreen(page, name, ready);
}

test.describe('screens', () => {
  test('login and register', async ({ page }) => {
    await page.goto('/login');
    await checkScreen(page, 'login', () =>
      expect(page.getByRole('button', { name: 'Login' })).toBeVisible(),
    );
    await page.goto('/register');
    await checkScreen(page, 'register', () =>
      expect(page.getByRole('link', { name: /login/i })).toBeVisible(),
    );
  });

  test('todos, groups and statistics with data', async ({ page, request }) => {
    test.setTimeout(90_000);
    const user = await registerViaApi(request, 'screens');
    const work = await user.api.groups
      .create({
        body: {
          name: 'Work',
          color: '#EF4444',
        },
      })
      .expectOk();
    const home = await user.api.groups
      .create({
        body: {
          name: 'Home',
          color: '#10B981',
        },
      })
      .expectOk();
    await user.api.groups
      .create({
        body: {
          name: 'A rather long group name for wrapping',
          color: '#8B5CF6',
        },
      })
      .expectOk();
    await user.api.todos
      .create({ body: { title: 'Water the plants', groupId: home.id } })
      .expectOk();
    await user.api.todos
      .create({
        body: {
          title: 'Write the quarterly report',
          description:
            'Numbers from finance, charts from the dashboard, and a summary for the board.',
          groupId: work.id,
        },
      })
      .expectOk();
    const done = await user.api.todos.create({ body: { title: 'Buy milk' } }).expectOk();
    await user.api.todos
      .update({ params: { id: done.id }, body: { title: 'Buy milk', completed: true } })
      .expectOk();

    await signInWithStorage(page, user, '/todos');
    // The completed todo is in the Completed part, opened once (the browser remembers it).
    await page.getByRole('button', { name: 'Completed (1)' }).click();
    await checkScreen(page, 'todos', () =>
      expect(page.getByRole('checkbox', { name: 'Buy milk' })).toBeVisible(),
    );

    await page.getByRole('button', { name: 'Add Todo' }).click();
    await checkScreen(page, 'todos-new-form', async () => {
      // A reload (the theme) closes the form, which loads on first use: wait until the page
      // shows it or its Add Todo button (not while the page itself, or the form, is loading),
      // then open it if it is closed.
      const form = page.getByRole('form', { name: 'New todo' });
      const add = page.getByRole('button', { name: 'Add Todo' });
      await expect(form.or(add)).toBeVisible();
      if (!(await form.isVisible())) await add.click();
      await expect(form).toBeVisible();
    });

    await page.goto('/todos');
    await page.getByRole('button', { name: 'Delete Buy milk' }).click();
    await expect(page.getByRole('dialog', { name: 'Confirm Delete' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'delete dialog');
    await page.screenshot({ path: path.join(screenshotDir, 'todos-delete-dialog.png') });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Confirm Delete' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Delete Buy milk' })).toBeFocused();

    await page.goto('/groups');
    await checkScreen(page, 'groups', () =>
      expect(page.getByRole('heading', { name: 'Manage Groups' })).toBeVisible(),
    );

    await page.goto('/statistics');
    await checkScreen(page, 'statistics', () =>
      expect(page.getByRole('region', { name: /Daily activity/ })).toBeVisible(),
    );
  });

  test('empty states', async ({ page, request }) => {
    const user = await registerViaApi(request, 'empty');
    await signInWithStorage(page, user, '/todos');
    await expect(page.getByText('No todos yet. Add one above!')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'empty todos');
    await page.goto('/groups');
    await expect(page.getByText('No groups yet. Create one above.')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'empty groups');
  });
});
