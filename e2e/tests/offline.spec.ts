import { expect, test } from '@playwright/test';
import { registerViaApi, screenshotScreen, signInWithStorage } from '../support/fixtures';
import { hasSavedData, savedTodos } from '../support/saved-data';

/**
 * Offline (docs/product.md, Offline): the service worker serves the app with no network, the
 * last data shown comes back from IndexedDB, changes made offline wait in the queue (across a
 * reload) and reach the server exactly once when the network is back.
 */

test('works offline and sends the changes once when back online', async ({ page, context }) => {
  const user = await registerViaApi(page.request, 'offline');
  await user.api.todos.create({ body: { title: 'Pay rent' } }).expectOk();
  await user.api.todos.create({ body: { title: 'Old idea' } }).expectOk();

  await signInWithStorage(page, user);
  const list = page.getByRole('list', { name: 'Todos' });
  await expect(list.getByRole('checkbox')).toHaveCount(2);
  // Installed and in control of the page, with the list saved.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await expect.poll(() => hasSavedData(page, user)).toBe(true);
  // Installable: Chromium finds nothing missing (manifest, icons, service worker); a test's
  // browser context counts as incognito, which is the browser's reason, not the app's.
  const devtools = await context.newCDPSession(page);
  const { installabilityErrors } = await devtools.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.map((error) => error.errorId)).toEqual(['in-incognito']);
  const { errors: manifestErrors } = await devtools.send('Page.getAppManifest');
  expect(manifestErrors).toEqual([]);
  // A second DevTools session keeps the page online whatever setOffline says: close it.
  await devtools.detach();

  await context.setOffline(true);
  await page.reload();
  const banner = page.getByRole('status').filter({ hasText: 'You are offline' });
  await expect(banner).toContainText('You are offline: showing your saved data.');
  await expect(list.getByRole('checkbox', { name: 'Pay rent' })).toBeVisible();

  // A new todo, completed; an old one completed; another deleted.
  await page.getByRole('button', { name: 'Add Todo' }).click();
  const form = page.getByRole('form', { name: 'New todo' });
  await form.getByLabel('Title').fill('Written offline');
  await form.getByRole('button', { name: 'Create Todo' }).click();
  await expect(list.getByRole('checkbox', { name: 'Written offline' })).toBeVisible();
  await list.getByRole('checkbox', { name: 'Written offline' }).check();
  await list.getByRole('checkbox', { name: 'Pay rent' }).check();
  await page.getByRole('button', { name: 'Delete Old idea' }).click();
  await page
    .getByRole('dialog', { name: 'Confirm Delete' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(list.getByRole('checkbox')).toHaveCount(2);
  await expect(banner).toContainText('4 changes will be sent when you are back online.');

  // The queue and the changed list survive a reload without network.
  // Once the saved copy holds the changed list (100 ms after the last change), the reload shows
  // it. (Waiting for a save later than the last change raced a save made just then.)
  await expect
    .poll(() => savedTodos(page, user))
    .toEqual([
      { title: 'Written offline', completed: true },
      { title: 'Pay rent', completed: true },
    ]);
  await page.reload();
  await expect(banner).toContainText('4 changes will be sent');
  // Completed, they are in the Completed part after a reload (docs/product.md, Todos screen):
  // opened here.
  await page.getByRole('button', { name: 'Completed (2)' }).click();
  const completed = page.getByRole('list', { name: 'Completed todos' });
  await expect(completed.getByRole('checkbox', { name: 'Written offline' })).toBeChecked();
  await expect(completed.getByRole('checkbox', { name: 'Pay rent' })).toBeChecked();
  await screenshotScreen(page, 'todos-offline', () =>
    expect(completed.getByRole('checkbox')).toHaveCount(2),
  );

  await context.setOffline(false);
  await expect(page.getByRole('status').filter({ hasText: /offline|Sending/ })).toHaveCount(0);
  const todos = (await user.api.todos.list().expectOk()).map(({ title, completed }) => ({
    title,
    completed,
  }));
  expect(todos).toEqual([
    { title: 'Written offline', completed: true },
    { title: 'Pay rent', completed: true },
  ]);
  // The list on screen is the server's again (the stand-in id replaced by the real one).
  await expect(completed.getByRole('checkbox', { name: 'Written offline' })).toBeChecked();
});
