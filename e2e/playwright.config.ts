import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { GOOGLE_CLIENT_ID, googleAddresses } from './support/google-settings';
import { MAIL_FROM, SMTP_PASSWORD, SMTP_USER, mailAddresses } from './support/mail-settings';
import { IMAP_PASSWORD, IMAP_USER, INBOX_ADDRESS, inboxAddresses } from './support/inbox-settings';
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  OIDC_NAME,
  oidcAddresses,
} from './support/oidc-settings';
import { notifyAddresses } from './support/notify-settings';
import { basePort, E2E_PORT } from './support/ports';
import { environmentDataDir } from './support/tally-cli';

/**
 * End-to-end tests in Chromium against the real server (the production build) on a fresh
 * embedded database, each worker with an environment of its own: a Tally server and every
 * local service below, at the ports of support/ports.ts. Chromium: PLAYWRIGHT_CHROMIUM_PATH, else Debian's /usr/bin/chromium,
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
// Two specs at once where there are cores for two Chromiums; on 2 cores each spec took twice as
// long and the run gained little (decision 193), so one worker there.
const workers = Number(process.env.E2E_WORKERS ?? (availableParallelism() > 2 ? 2 : 1));
const baseURL = `http://127.0.0.1:${E2E_PORT}`;
const chromiumPath =
  process.env.PLAYWRIGHT_CHROMIUM_PATH ??
  (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
// The specs run the operator's `tally` command on their server's data (admin.spec.ts). Each
// worker reads this file again: the runner's folder, which the workers inherit, is the one.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'tally-e2e-'));
const root = path.resolve(import.meta.dirname, '..');

/** The local services and the Tally server of the environment with this index. */
function environment(index: number) {
  const base = basePort(index);
  const origin = `http://127.0.0.1:${base}`;
  const { IDP_PORT, IDP_ORIGIN } = googleAddresses(base);
  const { SMTP_PORT, MAILBOX_PORT, MAILBOX_ORIGIN, SMTP_URL } = mailAddresses(base);
  const { OIDC_PORT, OIDC_ISSUER } = oidcAddresses(base);
  const { IMAP_PORT, DELIVERY_PORT, DELIVERY_ORIGIN, INBOX_IMAP_URL } = inboxAddresses(base);
  const { RECEIVERS_PORT, RECEIVERS_CONTROL_PORT, RECEIVERS_CONTROL_ORIGIN, PUSHOVER_API_URL } =
    notifyAddresses(base);
  const dataDir = environmentDataDir(index);
  mkdirSync(dataDir, { recursive: true });
  const service = (script: string, url: string, env: Record<string, string>) => ({
    command: `node ${path.join(root, 'e2e/support', script)}`,
    cwd: root,
    url,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env,
  });
  return [
    service('local-google-idp.mjs', `${IDP_ORIGIN}/health`, {
      E2E_IDP_PORT: String(IDP_PORT),
      GOOGLE_CLIENT_ID,
    }),
    service('local-smtp.mjs', `${MAILBOX_ORIGIN}/health`, {
      E2E_SMTP_PORT: String(SMTP_PORT),
      E2E_MAILBOX_PORT: String(MAILBOX_PORT),
      E2E_SMTP_USER: SMTP_USER,
      E2E_SMTP_PASSWORD: SMTP_PASSWORD,
    }),
    service('local-oidc-provider.mjs', `${OIDC_ISSUER}/health`, {
      E2E_OIDC_PORT: String(OIDC_PORT),
      E2E_PUBLIC_URL: origin,
      OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET,
    }),
    service('local-dovecot.mjs', `${DELIVERY_ORIGIN}/health`, {
      E2E_IMAP_PORT: String(IMAP_PORT),
      E2E_DELIVERY_PORT: String(DELIVERY_PORT),
      E2E_IMAP_USER: IMAP_USER,
      E2E_IMAP_PASSWORD: IMAP_PASSWORD,
    }),
    service('local-notify-receivers.mjs', `${RECEIVERS_CONTROL_ORIGIN}/health`, {
      E2E_RECEIVERS_PORT: String(RECEIVERS_PORT),
      E2E_RECEIVERS_CONTROL_PORT: String(RECEIVERS_CONTROL_PORT),
    }),
    {
      command: `node ${path.join(root, 'server/dist/main.js')}`,
      cwd: root,
      url: `${origin}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
      env: {
        PORT: String(base),
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
        PUBLIC_URL: origin,
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
  ];
}

export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results',
  fullyParallel: false,
  workers,
  // A retry on CI shows whether a failure repeats; a test that passes only on its retry still
  // fails the run, and scripts/test.mjs names it.
  retries: process.env.CI ? 1 : 0,
  failOnFlakyTests: true,
  // Room for two specs sharing the cores: a test that waits on nothing still fails fast.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    // A British browser: dates as "Mon 4 Dec", a 24-hour clock (web/src/lib/date-format.ts).
    locale: 'en-GB',
    // A trace is recorded on CI's retry of a failed test, not for every test: recording each
    // one made the whole run slower (decision 193). Locally (no retries) `--trace=on` records one.
    trace: 'on-first-retry',
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
  webServer: Array.from({ length: workers }, (_, index) => environment(index)).flat(),
});
