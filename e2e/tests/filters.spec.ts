import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, setTheme, signInWithStorage } from '../support/fixtures';
import { savedTodos } from '../support/saved-data';

/**
 * Saved filters (docs/decisions/162-filters.md): built from chips and saved, counted live beside
 * the lists, a query that cannot be read said beside its field, and the same todos offline as
 * the server's GET /api/todos?filter= answers.
 */

/** Screenshots for the one who changes these screens to look at (FILTER_SHOTS=dir), never in git. */
async function shots(page: Page, name: string, ready: () => Promise<void>) {
  const dir = process.env.FILTER_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const [label, size] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      await page.setViewportSize(size);
      await ready();
      await page.screenshot({ path: path.join(dir, `${name}-${label}-${theme}.png`) });
    }
  }
  await setTheme(page, 'light');
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('a filter built from chips counts live, says a bad query, and works offline', async ({
  browser,
  page,
  context,
}) => {
  const user = await registerViaApi(page.request, 'filters');
  const work = await user.api.groups
    .create({
      body: {
        name: 'Work',
        color: '#3B82F6',
      },
    })
    .expectOk();
  await user.api.todos
    .create({
      body: {
        title: 'Ship report',
        groupId: work.id,
        priority: 3,
      },
    })
    .expectOk();
  await user.api.todos.create({ body: { title: 'Calm task', groupId: work.id } }).expectOk();
  await user.api.todos.create({ body: { title: 'Elsewhere', priority: 3 } }).expectOk();

  // Build it from the chips.
  await signInWithStorage(page, user, '/filters/new');
  const form = page.getByRole('form', { name: 'New filter' });
  await form.getByLabel('Filter name').fill('Urgent work');
  await form.getByLabel('Group').selectOption('Work');
  await form.getByLabel('Priority').selectOption('p1');
  await expect(form.getByLabel('Query')).toHaveValue('#Work & p1');
  await form.getByRole('button', { name: 'Save filter' }).click();
  await expect(page.getByRole('heading', { name: 'Urgent work (1)' })).toBeVisible();
  const shown = page.getByRole('list', { name: 'Todos of Urgent work' });
  await expect(shown.getByRole('listitem')).toHaveText(['Ship report']);
  const filterUrl = page.url();
  await shots(page, 'filter-page', () =>
    expect(shown.getByRole('listitem')).toHaveText(['Ship report']),
  );

  // Its count beside the lists follows a change made on another device.
  await page.goto('/todos');
  const link = page.getByRole('navigation', { name: 'Saved filters' });
  await expect(link.getByRole('link', { name: 'Urgent work (1)' })).toBeVisible();
  const other = await browser.newContext();
  const phone = await other.newPage();
  await signInWithStorage(phone, user, '/todos');
  await expect(phone.getByRole('link', { name: 'Urgent work (1)' })).toBeVisible();
  // Typed on the other device as anyone would, its group and priority read by quick add.
  await phone.getByRole('button', { name: 'Add Todo' }).click();
  const quick = phone.getByRole('form', { name: 'New todo' });
  await quick.getByLabel('Title', { exact: true }).fill('Call client #work p1');
  await expect(
    quick.getByRole('list', { name: 'Quick add understood' }).getByRole('listitem'),
  ).toHaveText([/Group\s*Work/, /Priority\s*High/]);
  await quick.getByRole('button', { name: 'Create Todo' }).click();
  await expect(link.getByRole('link', { name: 'Urgent work (2)' })).toBeVisible();
  await expect(phone.getByRole('link', { name: 'Urgent work (2)' })).toBeVisible();
  await other.close();
  await shots(page, 'filter-links', () =>
    expect(link.getByRole('link', { name: 'Urgent work (2)' })).toBeVisible(),
  );

  // A query it cannot read says where, beside the field, and cannot be saved.
  await page.goto('/filters/new');
  const next = page.getByRole('form', { name: 'New filter' });
  await next.getByLabel('Filter name').fill('Typo');
  await next.getByLabel('Query').fill('today & due befor: Dec 1');
  await expect(next.getByText('`due befor:` at 9: did you mean `due before:`?')).toBeVisible();
  await expect(next.getByRole('button', { name: 'Save filter' })).toBeDisabled();
  // Each shot reloads the page (the theme), which empties the form: typed again.
  await shots(page, 'filter-error', async () => {
    await next.getByLabel('Query').fill('today & due befor: Dec 1');
    await expect(next.getByText('`due befor:` at 9: did you mean `due before:`?')).toBeVisible();
  });

  // Offline, the same filter shows the todos the server answers for its query.
  const answer = await user.api.todos.list({ query: { filter: '#Work & p1' } }).expectOk();
  const fromServer = answer.map((todo) => todo.title);
  expect(fromServer).toEqual(['Call client', 'Ship report']);
  await page.goto(filterUrl);
  await expect(shown.getByRole('listitem')).toHaveText(fromServer);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await expect.poll(async () => (await savedTodos(page, user)).length).toBe(4);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'You are offline' })).toBeVisible();
  await expect(shown.getByRole('listitem')).toHaveText(fromServer);
  await context.setOffline(false);
});
