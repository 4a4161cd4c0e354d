import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { GOOGLE_CLIENT_ID, IDP_ORIGIN, IDP_PORT } from './support/google-settings';
import {
  MAIL_FROM,
  MAILBOX_ORIGIN,
  MAILBOX_PORT,
  SMTP_PASSWORD,
  SMTP_PORT,
  SMTP_URL,
  SMTP_USER,
} from './support/mail-settings';
import {
  DELIVERY_ORIGIN,
  DELIVERY_PORT,
  IMAP_PASSWORD,
  IMAP_PORT,
  IMAP_USER,
  INBOX_ADDRESS,
  INBOX_IMAP_URL,
} from './support/inbox-settings';
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  OIDC_ISSUER,
  OIDC_NAME,
  OIDC_PORT,
} from './support/oidc-settings';
import {
  PUSHOVER_API_URL,
  RECEIVERS_CONTROL_ORIGIN,
  RECEIVERS_CONTROL_PORT,
  RECEIVERS_PORT,
} from './support/notify-settings';

/**
 * End-to-end tests in Chromium against the real server (the production build) on a fresh
 * embedded database. Chromium: PLAYWRIGHT_CHROMIUM_PATH, else Debian's /usr/bin/chromium,
 * else Playwright's own download (where one is allowed).
 *
 * Continue with Google is configured against a local identity provider (support/
 * local-google-idp.mjs, started first); Google's client script is replaced per test by a stand-in
 * (support/google.ts). Chromium cannot resolve Google's hosts at all, so no test ever reaches
 * Google, whatever network the machine has. E-mail goes to a local SMTP server (support/
 * local-smtp.mjs, also started first), which keeps what it receives for the specs to read
 * (support/mailbox.ts). Single sign-on goes to a real OpenID provider on loopback (support/
 * local-oidc-provider.mjs, oidc-provider), whose login page Chromium fills in. E-mail to task
 * reads a mailbox on Dovecot from Debian (support/local-dovecot.mjs), into which specs deliver.
 * Notification channels reach stand-ins for ntfy, Gotify, Pushover and webhooks on loopback
 * (support/local-notify-receivers.mjs), which the server may call with OUTBOUND_ALLOW_PRIVATE.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
const chromiumPath =
  process.env.PLAYWRIGHT_CHROMIUM_PATH ??
  (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
// The specs run the operator's `tally` command on the server's data (admin.spec.ts). Each worker
// reads this file again: the runner's folder, which the workers inherit, is the one.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'tally-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
const root = path.resolve(import.meta.dirname, '..');

export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results',
  fullyParallel: false,
  workers: 1,
  // A retry on CI shows whether a failure repeats; a test that passes only on its retry still
  // fails the run, and scripts/test.mjs names it.
  retries: process.env.CI ? 1 : 0,
  failOnFlakyTests: true,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    // A British browser: dates as "Mon 4 Dec", a 24-hour clock (web/src/lib/date-format.ts).
    locale: 'en-GB',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(chromiumPath ? { executablePath: chromiumPath } : {}),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--host-resolver-rules=MAP *.google.com ~NOTFOUND, MAP *.googleapis.com ~NOTFOUND, ' +
          'MAP *.gstatic.com ~NOTFOUND, MAP google.com ~NOTFOUND',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    {
      command: `node ${path.join(root, 'e2e/support/local-google-idp.mjs')}`,
      cwd: root,
      url: `${IDP_ORIGIN}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_IDP_PORT: String(IDP_PORT), GOOGLE_CLIENT_ID },
    },
    {
      command: `node ${path.join(root, 'e2e/support/local-smtp.mjs')}`,
      cwd: root,
      url: `${MAILBOX_ORIGIN}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        E2E_SMTP_PORT: String(SMTP_PORT),
        E2E_MAILBOX_PORT: String(MAILBOX_PORT),
        E2E_SMTP_USER: SMTP_USER,
        E2E_SMTP_PASSWORD: SMTP_PASSWORD,
      },
    },
    {
      command: `node ${path.join(root, 'e2e/support/local-oidc-provider.mjs')}`,
      cwd: root,
      url: `${OIDC_ISSUER}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        E2E_OIDC_PORT: String(OIDC_PORT),
        E2E_PUBLIC_URL: baseURL,
        OIDC_CLIENT_ID,
        OIDC_CLIENT_SECRET,
      },
    },
    {
      command: `node ${path.join(root, 'e2e/support/local-dovecot.mjs')}`,
      cwd: root,
      url: `${DELIVERY_ORIGIN}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        E2E_IMAP_PORT: String(IMAP_PORT),
        E2E_DELIVERY_PORT: String(DELIVERY_PORT),
        E2E_IMAP_USER: IMAP_USER,
        E2E_IMAP_PASSWORD: IMAP_PASSWORD,
      },
    },
    {
      command: `node ${path.join(root, 'e2e/support/local-notify-receivers.mjs')}`,
      cwd: root,
      url: `${RECEIVERS_CONTROL_ORIGIN}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        E2E_RECEIVERS_PORT: String(RECEIVERS_PORT),
        E2E_RECEIVERS_CONTROL_PORT: String(RECEIVERS_CONTROL_PORT),
      },
    },
    {
      command: `node ${path.join(root, 'server/dist/main.js')}`,
      cwd: root,
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        AUTH_RATE_LIMIT_PER_MINUTE: '10000',
        LOGIN_ATTEMPTS_PER_ACCOUNT: '10000',
        GOOGLE_CLIENT_ID,
        GOOGLE_JWKS_URL: `${IDP_ORIGIN}/jwks`,
        GOOGLE_ISSUERS: IDP_ORIGIN,
        SMTP_URL,
        MAIL_FROM,
        PUBLIC_URL: baseURL,
        OIDC_ISSUER,
        OIDC_CLIENT_ID,
        OIDC_CLIENT_SECRET,
        OIDC_NAME,
        INBOX_IMAP_URL,
        INBOX_ADDRESS,
        OUTBOUND_ALLOW_PRIVATE: 'true',
        PUSHOVER_API_URL,
      },
    },
  ],
});
