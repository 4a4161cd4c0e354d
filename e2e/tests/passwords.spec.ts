import { expect, test } from '@playwright/test';
import { uniqueUsername } from '../support/fixtures';

/** New passwords against the real server's list of the most common ones (decision 079). */

test('register: a common password is refused beside the field; another one signs in', async ({
  page,
}) => {
  const username = uniqueUsername('common');
  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  const password = page.getByLabel('Password');
  await password.fill('iloveyou');
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(password).toHaveAccessibleDescription(
    'The password is too common - choose another.',
  );
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toHaveCount(0);

  await password.fill('an uncommon e2e password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('button', { name: `Logout ${username}` })).toBeVisible();
});
