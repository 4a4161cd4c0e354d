import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, signInWithStorage, screenshotDir } from '../support/fixtures';

/**
 * Share and bookmarklet against the real build: the manifest names /share as the share target,
 * a page shared there (as the phone's share sheet sends it) or sent by the bookmarklet from
 * another page opens the Add Todo form filled in, and saving it adds the todo.
 */

async function expectDraft(page: Page, title: string, description: string) {
  const form = page.getByRole('form', { name: 'New todo' });
  await expect(form.getByLabel('Title')).toHaveValue(title);
  await expect(form.getByLabel(/^Description/)).toHaveValue(description);
  await expect(page).toHaveURL(/\/todos$/);
  return form;
}

test.describe('share target and bookmarklet', () => {
  test('the manifest makes the installed app a share target of GET /share', async ({ request }) => {
    const manifest = (await (await request.get('/manifest.webmanifest')).json()) as {
      share_target?: unknown;
    };
    expect(manifest.share_target).toEqual({
      action: '/share',
      method: 'GET',
      enctype: 'application/x-www-form-urlencoded',
      params: { title: 'title', text: 'text', url: 'url' },
    });
  });

  test('a page shared to the app opens the Add Todo form filled in, phone and desktop', async ({
    page,
    request,
  }) => {
    mkdirSync(screenshotDir, { recursive: true });
    const user = await registerViaApi(request, 'share');
    await signInWithStorage(page, user, '/todos');
    await expect(page.getByRole('button', { name: 'Add Todo' })).toBeVisible();
    // Android's share sheet: the address in `text`, no `url`.
    const shared = new URLSearchParams({
      title: 'Sourdough basics',
      text: 'https://example.com/bread',
    });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/share?${shared}`);
      await expectDraft(page, 'Sourdough basics', 'https://example.com/bread');
      await page.screenshot({ path: path.join(screenshotDir, `share-target-${width}.png`) });
    }
    const form = page.getByRole('form', { name: 'New todo' });
    await form.getByRole('button', { name: 'Create Todo' }).click();
    await expect(page.getByRole('list', { name: 'Todos' })).toContainText('Sourdough basics');
  });

  test("the bookmarklet sends another page's title and address to the form", async ({
    page,
    context,
    request,
  }) => {
    const user = await registerViaApi(request, 'bookmarklet');
    await signInWithStorage(page, user, '/settings/share');
    const section = page.getByRole('region', { name: 'Share and bookmarklet' });
    const code = await section
      .getByLabel("Bookmarklet code (paste it as a bookmark's address)")
      .inputValue();
    expect(code).toMatch(/^javascript:/);
    await expect(section.getByRole('link', { name: 'Add to Tally' })).toHaveAttribute('href', code);
    await page.screenshot({ path: path.join(screenshotDir, 'share-bookmarklet-1280.png') });

    // Another site's page, where the bookmark is clicked: its script runs there.
    const other = await context.newPage();
    const guide = 'https://bikes.example/guides/fix?part=chain&level=1';
    await other.route(guide, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<title>Fix the bike: a guide</title><p>How to fix a bike.</p>',
      }),
    );
    await other.goto(guide);
    const [opened] = await Promise.all([
      context.waitForEvent('page'),
      other.evaluate((script) => {
        // The bookmark's address is a script: the browser runs it in the page, as eval does.
        (0, eval)(decodeURIComponent(script.replace(/^javascript:/, '')));
      }, code),
    ]);
    await opened.setViewportSize({ width: 390, height: 900 });
    await expectDraft(opened, 'Fix the bike: a guide', guide);
    await opened.screenshot({ path: path.join(screenshotDir, 'share-bookmarklet-390.png') });
  });
});
