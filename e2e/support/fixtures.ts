import { tmpdir } from 'node:os';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { apiAs, type ApiClient } from './api';

let counter = 0;

/** A username no other test (or earlier run on the same database) uses. */
export function uniqueUsername(prefix = 'e2e') {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}${counter}`;
}

export interface ApiUser {
  username: string;
  password: string;
  token: string;
  /** The API as this user calls it (support/api.ts). */
  api: ApiClient;
}

/** Registers through the API (faster than the form when the form is not what is tested). */
export async function registerViaApi(
  request: APIRequestContext,
  prefix?: string,
): Promise<ApiUser> {
  const username = uniqueUsername(prefix);
  const password = 'e2e password 123';
  const response = await apiAs(request, null).auth.register({
    body: { username, email: `${username}@example.com`, password },
  });
  expect(response.status()).toBe(201);
  const { accessToken: token } = await response.data();
  return { username, password, token, api: apiAs(request, { token }) };
}

/** Opens the app already signed in as the user (token and username in localStorage). */
export async function signInWithStorage(page: Page, user: ApiUser, path = '/todos') {
  await page.addInitScript(
    ({ token, username }) => {
      if (!sessionStorage.getItem('e2e-seeded')) {
        localStorage.setItem('token', token);
        localStorage.setItem('username', username);
        sessionStorage.setItem('e2e-seeded', '1');
      }
    },
    { token: user.token, username: user.username },
  );
  await page.goto(path);
}

/** axe's rules for WCAG 2 A and AA, the ones every scan runs. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa'];

/**
 * axe's results for the page as it stands. A page without frames is scanned by axe.run inside it,
 * axe injected once per document: AxeBuilder would inject it again for every scan and finish each
 * in a blank page of its own, for the same results. A page with frames goes through AxeBuilder,
 * which reaches cross-origin frames. Only violations carry every node: nothing reads the others.
 */
async function axeResults(page: Page): Promise<axe.AxeResults> {
  if (page.frames().length > 1) return new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.evaluate(axe.source);
  const options: axe.RunOptions = {
    runOnly: { type: 'tag', values: AXE_TAGS },
    resultTypes: ['violations'],
  };
  return page.evaluate(
    (runOptions) => (window as unknown as { axe: typeof axe }).axe.run(document, runOptions),
    options,
  );
}

/** Fails on serious or critical axe-core violations (WCAG 2 A and AA rules). */
export async function expectNoSeriousA11yViolations(page: Page, context: string) {
  // Colours mid-transition (a button just chosen) are neither state's: scan once they settle.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => !(animation instanceof CSSTransition)),
  );
  const results = await axeResults(page);
  const serious = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `axe on ${context}`,
  ).toEqual([]);
}

/**
 * Where the specs save their screenshots: SHOTS_DIR, else a folder of the system's temporary
 * directory, never inside the checkout, so a run changes no file of the repository.
 */
export const screenshotDir = process.env.SHOTS_DIR ?? path.join(tmpdir(), 'tally-e2e-screenshots');

export async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((value) => localStorage.setItem('theme', value), theme);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark).*$/);
}

/**
 * Saves the current screen at 390 px and 1280 px wide, in light and dark. `ready` asserts what
 * the screen shows before each shot, so no pass saves a picture of something else.
 */
export async function screenshotScreen(page: Page, name: string, ready: () => Promise<void>) {
  mkdirSync(screenshotDir, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await ready();
      await page.screenshot({
        path: path.join(screenshotDir, `${name}-${theme}-${width}.png`),
        fullPage: true,
      });
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}
