import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, signInWithStorage } from '../support/fixtures';

/**
 * User text that looks like markup is shown as text on every screen that shows it:
 * nothing is parsed as HTML, no script runs, no element of the payload reaches the DOM.
 */
const TITLE = '<script>window.__xss = "title"</script><b>bold</b>';
const DESCRIPTION = '<img src=x onerror="window.__xss = \'description\'"> & "quotes" \u202eRTL';
const GROUP = '<img src=x onerror="window.__xss=1">';

async function watchForScripts(page: Page) {
  await page.addInitScript(() => {
    (window as { __xss?: unknown }).__xss = undefined;
  });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return dialogs;
}

async function expectNothingInjected(page: Page, dialogs: string[]) {
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  await expect(page.locator('img[src="x"], main b, main script')).toHaveCount(0);
}

test('todos, edit form, delete dialog, groups and filter tabs show markup as text', async ({
  page,
  request,
}) => {
  const user = await registerViaApi(request, 'markup');
  const group = await user.api.groups
    .create({
      body: {
        name: GROUP,
        color: '#EF4444',
      },
    })
    .expectOk();
  await user.api.todos
    .create({
      body: {
        title: TITLE,
        description: DESCRIPTION,
        groupId: group.id,
      },
    })
    .expectOk();
  const dialogs = await watchForScripts(page);
  await signInWithStorage(page, user);

  // The list: title (the checkbox's label), description and group badge.
  const list = page.getByRole('list', { name: 'Todos' });
  const row = list.getByRole('listitem').filter({ hasText: TITLE });
  await expect(row.getByRole('checkbox', { name: TITLE })).toBeVisible();
  await expect(row.getByText(DESCRIPTION, { exact: true })).toBeVisible();
  await expect(row.getByText(GROUP, { exact: true })).toBeVisible();

  // The filter tabs.
  await expect(page.getByRole('tab', { name: `${GROUP} (1)` })).toBeVisible();
  await page.getByRole('tab', { name: `${GROUP} (1)` }).click();
  await expect(row.getByRole('checkbox', { name: TITLE })).toBeVisible();
  await expectNothingInjected(page, dialogs);

  // The inline edit form holds the exact text.
  await row.getByRole('button', { name: `Edit ${TITLE}` }).click();
  const form = page.getByRole('form', { name: `Edit todo ${TITLE}` });
  await expect(form.getByLabel('Title')).toHaveValue(TITLE);
  await expect(form.getByLabel('Description')).toHaveValue(DESCRIPTION);
  await expect(form.getByLabel('Group').locator('option:checked')).toHaveText(GROUP);
  await form.getByRole('button', { name: 'Cancel' }).click();

  // The Confirm Delete dialog asks with the title as text.
  await page.getByRole('button', { name: `Delete ${TITLE}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Delete' });
  await expect(dialog).toContainText(`Are you sure you want to delete "${TITLE}"?`);
  await expectNothingInjected(page, dialogs);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The groups list.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Groups' })
    .click();
  await expect(
    page.getByRole('list', { name: 'Groups' }).getByText(GROUP, { exact: true }),
  ).toBeVisible();
  await expectNothingInjected(page, dialogs);
});

test("the nav bar shows the signed-in user's name as text", async ({ page }) => {
  // Usernames cannot hold markup (letters, digits, . _ -), so the name comes from a token made
  // here; the API is answered locally so the made-up token is never refused.
  const name = '<img src=x onerror="window.__xss=1">';
  const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const token = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({
    sub: name,
    roles: ['user'],
    exp: Math.floor(Date.now() / 1000) + 3600,
  })}.signature`;
  await page.route('**/api/**', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }),
  );
  const dialogs = await watchForScripts(page);
  await page.addInitScript(
    ({ token, name }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('username', name);
    },
    { token, name },
  );
  await page.goto('/todos');
  await expect(page.getByRole('button', { name: `Logout ${name}` })).toBeVisible();
  await expectNothingInjected(page, dialogs);
  await expect(page.locator('nav img')).toHaveCount(0);
});
