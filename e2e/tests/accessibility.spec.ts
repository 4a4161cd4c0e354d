import { expect, test, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  setTheme,
  signInWithStorage,
} from '../support/fixtures';
import { tallyCommand } from '../support/tally-cli';

/**
 * axe passes on every screen. daily-loop-screens.spec.ts covers /todos, the detail
 * view, selection mode, Settings' first section and Statistics at two widths and both themes;
 * this walks the rest (the signed-out pages, every route of web/src/app/router.tsx, the other
 * views, the Completed part open, the row menu, the delete dialog, the shortcuts sheet and the
 * command palette, Trash, Groups, the calendar's month, week and day, the filters, the admin
 * page and every section the Settings menu lists) in light and dark, on a phone (390×844) and at
 * a desktop width (1280×800).
 */

// The four tests share nothing (each signs in a user of its own), so where the run has two
// workers they split across both instead of queueing behind each other in one.
test.describe.configure({ mode: 'parallel' });

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

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
    test.setTimeout(360_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const user = await registerViaApi(request, 'axeall');
    tallyCommand('admin', 'grant', user.username);
    const filter = await user.api.filters
      .create({
        body: {
          name: 'Due soon',
          color: '#3B82F6',
          query: 'p1',
        },
      })
      .expectOk();
    const home = await user.api.groups
      .create({
        body: {
          name: 'Home',
          color: '#84CC16',
        },
      })
      .expectOk();
    const today = new Date().toISOString().slice(0, 10);
    await user.api.todos.create({ body: { title: 'Water plants', groupId: home.id } }).expectOk();
    await user.api.todos.create({ body: { title: 'Call Bob', dueDate: today } }).expectOk();
    const done = await user.api.todos.create({ body: { title: 'Pay rent' } }).expectOk();
    await user.api.todos
      .update({ params: { id: done.id }, body: { title: 'Pay rent', completed: true } })
      .expectOk();
    const gone = await user.api.todos.create({ body: { title: 'Old idea' } }).expectOk();
    await user.api.todos.remove({ params: { id: gone.id } }).expectOk();
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

      // The row menu (a phone's only way to the row's actions), then its Delete.
      await page.getByRole('button', { name: 'Actions for Water plants' }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/todos, the row menu open, ${theme}`);
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/todos, the delete dialog, ${theme}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();

      for (const view of ['today', 'upcoming']) {
        await page.goto(`/todos?view=${view}`);
        await expect(page.getByRole('link', { name: 'All', exact: true })).toBeVisible();
        await expectNoSeriousA11yViolations(page, `/todos?view=${view}, ${theme}`);
      }

      await page.goto('/todos');
      await expect(page.getByRole('list', { name: 'Todos', exact: true })).toBeVisible();
      await page.locator('body').press('?');
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `the shortcuts sheet, ${theme}`);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: 'Command palette' });
      await expect(palette.getByRole('combobox', { name: 'Command or todo' })).toBeFocused();
      await page.keyboard.type('wat');
      await expect(palette.getByRole('option').first()).toBeVisible();
      await expectNoSeriousA11yViolations(page, `the command palette, ${theme}`);
      await page.keyboard.press('Escape');
      await expect(palette).toBeHidden();

      await page.goto('/calendar');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // Each of its views (month, week and day; on a phone month, three days and day).
      const calendarViews = page.getByRole('group', { name: 'View' }).getByRole('button');
      await expect(calendarViews).toHaveCount(3);
      for (const range of await calendarViews.allTextContents()) {
        // The whole name: "Day" is also in "3 days".
        const button = page
          .getByRole('group', { name: 'View' })
          .getByRole('button', { name: range, exact: true });
        await button.click();
        await expect(button).toHaveAttribute('aria-pressed', 'true');
        await expectNoSeriousA11yViolations(page, `/calendar, ${range}, ${theme}`);
      }

      await page.goto('/filters/new');
      await expect(page.getByRole('form', { name: 'New filter' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/filters/new, ${theme}`);
      await page.goto(`/filters/${filter.id}`);
      await expect(page.getByRole('heading', { name: /^Due soon/ })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `a saved filter, ${theme}`);

      await page.goto('/admin');
      await expect(page.getByRole('heading', { name: 'Admin', level: 1 })).toBeVisible();
      await expect(page.getByRole('list', { name: 'Accounts' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/admin, ${theme}`);

      await page.goto('/trash');
      await expect(page.getByText('Old idea')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/trash, ${theme}`);

      await page.goto('/groups');
      await expect(page.getByRole('heading', { name: 'Manage Groups' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/groups, ${theme}`);

      await page.goto('/statistics');
      await expect(page.getByRole('region', { name: /Daily activity/ })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/statistics, ${theme}`);

      // Every section the menu lists (e-mail to task, notifications and the language among them).
      await page.goto('/settings');
      const menu = page.getByRole('navigation', { name: 'Settings sections' });
      // The menu is drawn once the sections' code is in, and lists Google and single sign-on
      // once the server's settings are in (both are configured here): read it after those show.
      for (const last of ['email-to-task', 'google', 'sso']) {
        await expect(menu.locator(`a[href="/settings/${last}"]`)).toBeVisible();
      }
      const sections = await menu
        .getByRole('link')
        .evaluateAll((links) =>
          links
            .map((link) => link.getAttribute('href') ?? '')
            .filter((href) => href.startsWith('/settings/')),
        );
      expect(sections).toEqual(
        expect.arrayContaining(['/settings/email-to-task', '/settings/google', '/settings/sso']),
      );
      for (const section of sections) {
        await page.goto(section);
        // The section is in, not only the page around it: its link is the current one and
        // nothing is loading (Language has no heading of its own, so no heading is waited for).
        await expect(page.locator(`nav a[href="${section}"][aria-current="page"]`)).toBeVisible();
        await expect(page.getByRole('main').getByText(/^Loading/)).toHaveCount(0);
        await expectNoSeriousA11yViolations(page, `${section}, ${theme}`);
      }

      await page.goto('/no-such-page');
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `a page not found, signed in, ${theme}`);
    }
  });
}
