import { expect, test, type Page } from '@playwright/test';
import {
  apiPost,
  expectNoSeriousA11yViolations,
  registerViaApi,
  setTheme,
  signInWithStorage,
} from '../support/fixtures';

/**
 * axe passes on every screen. daily-loop-screens.spec.ts covers /todos, the detail
 * view, selection mode, Settings' first section and Statistics at two widths and both themes;
 * this walks the rest (the signed-out pages, every route of web/src/app/router.tsx, the other
 * views, the Completed part open, the delete dialog, Trash, Groups and every Settings section)
 * in light and dark, on a phone (390×844) and at a desktop width (1280×800).
 */

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const SETTINGS_SECTIONS = [
  'account',
  'password',
  'two-factor',
  'passkeys',
  'sessions',
  'reminders',
  'api-tokens',
  'assistants',
  'share',
  'calendar-apps',
  'calendar',
  'data',
  'import',
  'danger',
];

/**
 * The signed-out pages, each with what shows that it is ready. The link pages take their token
 * out of the address, so they are opened afresh each time.
 */
const SIGNED_OUT: { path: string; ready: (page: Page) => Promise<void> }[] = [
  { path: '/login', ready: (page) => expect(page.getByLabel('Username')).toBeVisible() },
  { path: '/register', ready: (page) => expect(page.getByLabel('Email')).toBeVisible() },
  {
    path: '/forgot-password',
    ready: (page) => expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible(),
  },
  {
    path: '/reset-password#token=not-a-real-token',
    ready: (page) => expect(page.getByRole('button', { name: 'Set new password' })).toBeVisible(),
  },
  {
    path: '/reset-password',
    ready: (page) => expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible(),
  },
  {
    path: '/verify-email#token=not-a-real-token',
    ready: (page) => expect(page.getByRole('alert')).toBeVisible(),
  },
  {
    path: '/verify-email',
    ready: (page) => expect(page.getByText(/This link is incomplete/)).toBeVisible(),
  },
  {
    path: '/no-such-page',
    ready: (page) => expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible(),
  },
];

for (const viewport of VIEWPORTS) {
  test(`every signed-out page passes axe, light and dark, ${viewport.name}`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    for (const theme of ['light', 'dark'] as const) {
      await page.goto('/login');
      await setTheme(page, theme);
      for (const { path, ready } of SIGNED_OUT) {
        await page.goto('about:blank');
        await page.goto(path);
        await ready(page);
        await expectNoSeriousA11yViolations(page, `${path}, ${theme}, ${viewport.name}`);
      }
    }
  });

  test(`every other signed-in screen passes axe, light and dark, ${viewport.name}`, async ({
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
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

      await page.getByRole('button', { name: 'Add Todo' }).click();
      await expect(page.getByRole('form', { name: 'New todo' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/todos with the new-todo form, ${theme}`);
      await page.getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('button', { name: 'Delete Water plants' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/todos, the delete dialog, ${theme}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();

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

      await page.goto('/statistics');
      await expect(page.getByRole('region', { name: /Daily activity/ })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/statistics, ${theme}`);

      for (const section of SETTINGS_SECTIONS) {
        await page.goto(`/settings/${section}`);
        // The section's card is in (its heading), not only the page around it.
        await expect(
          page.getByRole('main').getByRole('heading', { level: 2 }).first(),
        ).toBeVisible();
        await expectNoSeriousA11yViolations(page, `/settings/${section}, ${theme}`);
      }

      await page.goto('/no-such-page');
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `a page not found, signed in, ${theme}`);
    }
  });
}
