import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, request, test, type Page } from '@playwright/test';
import { apiAs } from '../support/api';
import { expectNoSeriousA11yViolations } from '../support/fixtures';
import { e2ePort } from '../support/ports';

/**
 * A fresh server of this spec's own with SETUP_TOKEN and forward auth (README.md, Behind an auth
 * proxy): the first account is made on /register with the setup token; then a small proxy that
 * signs everyone in as that account (as Authelia or Authentik would, with Remote-User) opens the
 * app already signed in. The proxy connects from 127.0.0.2, the one address the server trusts
 * the header from, so the same header sent straight from the browser's 127.0.0.1 is ignored.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const serverPort = e2ePort('firstStartServer');
const proxyPort = e2ePort('forwardAuthProxy');
const serverOrigin = `http://127.0.0.1:${serverPort}`;
const proxyOrigin = `http://127.0.0.1:${proxyPort}`;
const SETUP_TOKEN = 'e2e-setup-token-0123456789';
const OPERATOR = 'first_operator';
const PASSWORD = 'a long first password';

let server: ChildProcess;
let proxy: http.Server;

test.beforeAll(async () => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(serverPort),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tally-e2e-first-start-')),
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    REGISTRATION: 'closed',
    SETUP_TOKEN,
    AUTH_PROXY_HEADER: 'Remote-User',
    AUTH_PROXY_TRUSTED: '127.0.0.2',
  };
  delete env.DATABASE_URL;
  server = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
    env,
    stdio: 'ignore',
  });
  // The proxy: every request goes on with Remote-User set by it, whatever the client sent.
  proxy = http.createServer((incoming, answer) => {
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: serverPort,
        localAddress: '127.0.0.2',
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, 'remote-user': OPERATOR },
      },
      (response) => {
        answer.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(answer);
      },
    );
    upstream.on('error', () => answer.writeHead(502).end());
    incoming.pipe(upstream);
  });
  proxy.listen(proxyPort, '127.0.0.1');
  await once(proxy, 'listening');
  const api = await request.newContext({ baseURL: serverOrigin });
  await expect
    .poll(async () => (await api.get('/readyz').catch(() => null))?.status() ?? 0, {
      timeout: 30_000,
    })
    .toBe(200);
  await api.dispose();
});

test.afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  server.kill('SIGTERM');
});

const addTodo = async (page: Page, title: string) => {
  await page.getByRole('button', { name: 'Add Todo' }).click();
  const form = page.getByRole('form', { name: 'New todo' });
  await form.getByLabel('Title').fill(title);
  await form.getByRole('button', { name: 'Create Todo' }).click();
  await expect(page.getByRole('checkbox', { name: title })).toBeVisible();
};

test.describe.configure({ mode: 'serial' });

test('the first account needs the setup token, even with sign-up closed', async ({
  page,
  browser,
}) => {
  // The page with its extra field passes axe on a phone and a desktop.
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await page.goto(`${serverOrigin}/register`);
    await expect(page.getByText('This server has no account yet.')).toBeVisible();
    await expectNoSeriousA11yViolations(page, `/register with a setup token, ${size.width} px`);
  }
  await page.getByLabel('Username').fill(OPERATOR);
  await page.getByLabel('Email').fill('operator@example.com');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Setup token').fill('not-the-setup-token');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText("The setup token is not this server's setup token.")).toBeVisible();

  await page.getByLabel('Setup token').fill(SETUP_TOKEN);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/todos$/);
  await addTodo(page, 'Set up backups');

  // After that, sign-up is closed as configured: the page says so and asks for no token.
  const other = await browser.newPage();
  await other.goto(`${serverOrigin}/register`);
  await expect(other.getByText(/Sign-up is closed on this server/)).toBeVisible();
  await expect(other.getByLabel('Setup token')).toHaveCount(0);
  await other.close();
});

test('behind the forward-auth proxy the app opens signed in, and keeps working', async ({
  page,
}) => {
  await page.goto(`${proxyOrigin}/login`);
  await expect(page).toHaveURL(/\/todos$/);
  await expect(page.getByRole('checkbox', { name: 'Set up backups' })).toBeVisible();
  await addTodo(page, 'Added through the proxy');
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Added through the proxy' })).toBeVisible();
});

test('the header from anyone but the trusted proxy signs nobody in', async ({ page }) => {
  await page.setExtraHTTPHeaders({ 'remote-user': OPERATOR });
  await page.goto(`${serverOrigin}/login`);
  await expect(page.getByLabel('Username')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  const context = await request.newContext({
    baseURL: serverOrigin,
    extraHTTPHeaders: { 'remote-user': OPERATOR },
  });
  expect((await apiAs(context, null).auth.proxySignIn()).status()).toBe(401);
  await context.dispose();
});
