import { expect, test } from '@playwright/test';
import { registerViaApi, signInWithStorage } from '../support/fixtures';

/** The list call, with or without its paging query (the first screen asks for ?limit=50). */
const TODO_LIST = /\/api\/todos(\?.*)?$/;

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

test.describe('sessions', () => {
  test('a stored expired token is cleared at start and the user lands on /login', async ({
    page,
  }) => {
    const expired = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({
      sub: 'ghost',
      roles: ['user'],
      exp: Math.floor(Date.now() / 1000) - 60,
    })}.signature`;
    await page.addInitScript((token) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('token', token);
        localStorage.setItem('username', 'ghost');
        sessionStorage.setItem('seeded', '1');
      }
    }, expired);
    await page.goto('/todos');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Session expired on app start')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test('a session survives the access token: a reload renews it from the refresh cookie', async ({
    page,
  }) => {
    const username = `renew_${Date.now().toString(36)}`;
    await page.goto('/register');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email').fill(`${username}@example.com`);
    await page.getByLabel('Password').fill('birch window 615');
    await page.getByRole('button', { name: /create account|register/i }).click();
    await expect(page).toHaveURL(/\/todos$/);
    // Make the stored access token look expired: the app must renew it silently.
    await page.evaluate(() => {
      const token = localStorage.getItem('token') ?? '';
      const [header, , signature] = token.split('.');
      const payload = btoa(JSON.stringify({ sub: 'x', roles: [], exp: 1 }))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
      localStorage.setItem('token', `${header}.${payload}.${signature}`);
    });
    await page.reload();
    await expect(page).toHaveURL(/\/todos$/);
    await expect(page.getByRole('button', { name: `Logout ${username}` })).toBeVisible();
    const after = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
    const claims = JSON.parse(Buffer.from(after.split('.')[1] ?? '', 'base64url').toString()) as {
      sub: string;
      exp: number;
    };
    expect(claims.sub).toBe(username);
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
  });

  test('a 401 on a call with a stored token logs out with the red notice, then /login', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'forced');
    await page.route(TODO_LIST, (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: '{"error":"Invalid or expired token"}',
      }),
    );
    await signInWithStorage(page, user);
    const notice = page.getByText('Authentication failed (401) - please log in again');
    await expect(notice).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await expect(notice).toBeHidden({ timeout: 5_000 });
  });
});

test.describe('the error catalogue', () => {
  test('a 500 shows "Server error - please try again later"', async ({ page, request }) => {
    const user = await registerViaApi(request, 'err500');
    await page.route(TODO_LIST, (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: '{"error":"Internal server error"}',
          })
        : route.continue(),
    );
    await signInWithStorage(page, user);
    await expect(page.getByText('Server error - please try again later')).toBeVisible();
    await expect(page).toHaveURL(/\/todos$/);
  });

  test('an unreachable server shows "Network error - check your connection"', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'offline');
    await page.route(TODO_LIST, (route) => route.abort('connectionrefused'));
    await signInWithStorage(page, user);
    await expect(page.getByText('Network error - check your connection')).toBeVisible();
  });

  test('a failed completion rolls back with a visible, dismissible message', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'rollback');
    await user.api.todos.create({ body: { title: 'Stubborn task' } }).expectOk();
    await page.route('**/api/todos/*', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' })
        : route.continue(),
    );
    await signInWithStorage(page, user);
    const checkbox = page.getByRole('checkbox', { name: 'Stubborn task' });
    await checkbox.check({ force: true }).catch(() => undefined);
    await expect(page.getByText('Server error - please try again later')).toBeVisible();
    await expect(checkbox).not.toBeChecked();
    await page.getByRole('button', { name: 'Dismiss notification' }).first().click();
    await expect(page.getByText('Server error - please try again later')).toBeHidden();
  });
});
