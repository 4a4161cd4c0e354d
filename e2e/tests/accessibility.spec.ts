import { expect, test } from '@playwright/test';
import {
  apiPost,
  expectNoSeriousA11yViolations,
  registerViaApi,
  setTheme,
  signInWithStorage,
} from '../support/fixtures';

/**
 * Issue 28: axe passes on every screen. daily-loop-screens.spec.ts covers /todos, the detail
 * view, selection mode, Settings' first section and Statistics at two widths and both themes;
 * this walks the rest (signed out, the other views, the Completed part open, Trash, Groups and
 * every Settings section) in light and dark at a desktop width.
 */

const SETTINGS_SECTIONS = [
  'account',
  'password',
  'two-factor',
  'passkeys',
  'sessions',
  'reminders',
  'api-tokens',
  'calendar-apps',
  'calendar',
  'data',
  'import',
  'danger',
];

test('every other screen passes axe, light and dark', async ({ page, request }) => {
  test.setTimeout(240_000);
  for (const path of ['/login', '/register']) {
    await page.goto(path);
    await expect(page.getByRole('main')).toBeVisible();
    await expectNoSeriousA11yViolations(page, path);
  }

  const user = await registerViaApi(request, 'axeall');
  const home = await apiPost<{ id: number }>(request, user, '/api/todo-groups', {
    name: 'Home',
    color: '#84CC16',
  });
  const today = new Date().toISOString().slice(0, 10);
  await apiPost(request, user, '/api/todos', { title: 'Water plants', groupId: home.id });
  await apiPost(request, user, '/api/todos', { title: 'Call Bob', dueDate: today });
  const done = await apiPost<{ id: number }>(request, user, '/api/todos', { title: 'Pay rent' });
  await request.put(`/api/todos/${done.id}`, {
    headers: { authorization: `Bearer ${user.token}` },
    data: { title: 'Pay rent', completed: true },
  });
  const gone = await apiPost<{ id: number }>(request, user, '/api/todos', { title: 'Old idea' });
  await request.delete(`/api/todos/${gone.id}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  await signInWithStorage(page, user);

  for (const theme of ['light', 'dark'] as const) {
    await page.goto('/todos');
    await setTheme(page, theme);
    const completed = page.getByRole('button', { name: 'Completed (1)' });
    await expect(completed).toBeVisible();
    if ((await completed.getAttribute('aria-expanded')) === 'false') await completed.click();
    await expect(page.getByRole('list', { name: 'Completed todos' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, `/todos with the Completed part open, ${theme}`);

    for (const view of ['today', 'upcoming']) {
      await page.goto(`/todos?view=${view}`);
      await expect(page.getByRole('link', { name: 'All', exact: true })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/todos?view=${view}, ${theme}`);
    }

    await page.goto('/trash');
    await expect(page.getByText('Old idea')).toBeVisible();
    await expectNoSeriousA11yViolations(page, `/trash, ${theme}`);

    await page.goto('/groups');
    await expect(page.getByRole('heading', { name: 'Manage Groups' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, `/groups, ${theme}`);

    for (const section of SETTINGS_SECTIONS) {
      await page.goto(`/settings/${section}`);
      // The section's card is in (its heading), not only the page around it.
      await expect(page.getByRole('main').getByRole('heading', { level: 2 }).first()).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/settings/${section}, ${theme}`);
    }
  }
});
