import { expect, test } from '@playwright/test';
import { registerViaApi, signInWithStorage } from '../support/fixtures';

/**
 * Live updates (docs/decisions/061-live-updates.md): two browsers signed in as one user; a
 * change in one shows in the other with no reload (how soon is the server's to prove, in
 * server/src/live/live.test.ts; a deadline here would measure the shared machine). Tabs of one
 * browser share one stream.
 */

test('a change in one browser shows in the other; tabs share one stream', async ({
  browser,
  request,
}) => {
  const user = await registerViaApi(request, 'live');
  const laptop = await browser.newContext();
  const phone = await browser.newContext();
  const [a, b] = await Promise.all([laptop.newPage(), phone.newPage()]);
  // Each page's stream is open (its "ready" read) before the first change is made.
  const streaming = (page: typeof a) =>
    page.waitForResponse((response) => response.url().endsWith('/api/events'));
  await Promise.all([
    streaming(a),
    streaming(b),
    signInWithStorage(a, user, '/todos'),
    signInWithStorage(b, user, '/todos'),
  ]);
  await expect(b.getByText('No todos yet. Add one above!')).toBeVisible();

  // Create.
  await a.getByRole('button', { name: 'Add Todo' }).click();
  const form = a.getByRole('form', { name: 'New todo' });
  await form.getByLabel('Title').fill('Seen everywhere');
  await form.getByRole('button', { name: 'Create Todo' }).click();
  const onB = b.getByRole('checkbox', { name: 'Seen everywhere' });
  await expect(onB).toBeVisible();
  await expect(onB).not.toBeChecked();

  // Complete, on the other side this time.
  await onB.check();
  await expect(a.getByRole('checkbox', { name: 'Seen everywhere' })).toBeChecked();

  // Delete.
  await a.getByRole('button', { name: 'Delete Seen everywhere', exact: true }).click();
  await a
    .getByRole('dialog', { name: 'Confirm Delete' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(onB).toHaveCount(0);
  await expect(b.getByText('No todos yet. Add one above!')).toBeVisible();

  // A second tab of the laptop opens no stream of its own, and still hears the changes.
  let streams = 0;
  laptop.on('request', (r) => void (r.url().endsWith('/api/events') && (streams += 1)));
  const secondTab = await laptop.newPage();
  await secondTab.goto('/todos');
  await expect(secondTab.getByText('No todos yet. Add one above!')).toBeVisible();
  await b.getByRole('button', { name: 'Add Todo' }).click();
  const formB = b.getByRole('form', { name: 'New todo' });
  await formB.getByLabel('Title').fill('From the phone');
  await formB.getByRole('button', { name: 'Create Todo' }).click();
  await expect(secondTab.getByRole('checkbox', { name: 'From the phone' })).toBeVisible();
  await expect(a.getByRole('checkbox', { name: 'From the phone' })).toBeVisible();
  expect(streams).toBe(0);

  await laptop.close();
  await phone.close();
});
