import { expect, test } from '@playwright/test';
import { apiAs } from '../support/api';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  screenshotScreen,
  signInWithStorage,
} from '../support/fixtures';
import { tallyCommand } from '../support/tally-cli';
import { waitForMail } from '../support/mailbox';

/**
 * The admin page (docs/product.md, Admin page): an operator named with `tally admin grant`
 * disables and enables an account, sends a test e-mail, and reads both in the audit log; an
 * account that is not an operator sees the refusal. On a phone and on a desktop.
 */

for (const width of [390, 1280]) {
  test(`the operator disables and enables an account, tests mail, reads the audit log (${width} px)`, async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width, height: 900 });
    const operator = await registerViaApi(request, 'admin');
    expect(tallyCommand('admin', 'grant', operator.username)).toMatch(/is an operator/);
    const member = await registerViaApi(request, 'member');
    await member.api.todos.create({ body: { title: 'Water plants' } }).expectOk();

    await signInWithStorage(page, operator, '/settings');
    await page.getByRole('link', { name: 'Admin page' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'Admin', level: 1 })).toBeVisible();

    const accounts = page.getByRole('list', { name: 'Accounts' });
    const row = accounts.getByRole('listitem').filter({ hasText: member.username });
    await expect(row).toContainText(`${member.username}@example.com · not verified`);
    await expect(row).toContainText('1 todo');

    await row.getByRole('button', { name: `Disable ${member.username}` }).click();
    await expect(row).toContainText('disabled');
    const signIn = { body: { username: member.username, password: member.password } };
    const refused = await apiAs(request, null).auth.login(signIn);
    expect(refused.status()).toBe(403);

    await row.getByRole('button', { name: `Enable ${member.username}` }).click();
    await expect(row.getByRole('button', { name: `Disable ${member.username}` })).toBeVisible();
    const back = await apiAs(request, null).auth.login(signIn);
    expect(back.status()).toBe(200);

    await expect(page.getByText('Database', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Send a test e-mail' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Sent to' })).toHaveText(
      `Sent to ${operator.username}@example.com.`,
    );
    const mail = await waitForMail(
      request,
      `${operator.username}@example.com`,
      /Tally test e-mail/,
    );
    expect(mail.subject).toBe('Tally test e-mail');

    const log = page.getByRole('list', { name: 'Audit log' });
    await expect(log.getByRole('listitem').nth(0)).toContainText(
      `${operator.username} sent a test e-mail`,
    );
    await expect(log.getByRole('listitem').nth(1)).toContainText(
      `${operator.username} enabled ${member.username}`,
    );
    await expect(log.getByRole('listitem').nth(2)).toContainText(
      `${operator.username} disabled ${member.username}`,
    );
    await expectNoSeriousA11yViolations(page, `/admin at ${width} px`);
    if (width === 1280) {
      await screenshotScreen(page, 'admin', async () => {
        await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
      });
    }
  });
}

test('an account that is not an operator sees the refusal on /admin', async ({ page, request }) => {
  const member = await registerViaApi(request, 'not_admin');
  await signInWithStorage(page, member, '/admin');
  await expect(page.getByText('Only an operator may use the admin page')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Accounts' })).toHaveCount(0);
});
