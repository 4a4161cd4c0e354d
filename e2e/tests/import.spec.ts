import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiAs } from '../support/api';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  screenshotScreen,
  signInWithStorage,
} from '../support/fixtures';

/**
 * Settings, Import and the CSV export against the real server: a Todoist template's preview
 * (nothing changes), the import and its report, and the JSON round trip through the browser:
 * export, delete the account, register again, import.
 */

const fixtures = path.resolve(
  import.meta.dirname,
  '..',
  '..',
  'server',
  'src',
  'transfer',
  'fixtures',
);

async function openImport(page: Page) {
  const section = page.getByRole('region', { name: 'Import' });
  await expect(section).toBeVisible();
  return section;
}

test.describe('import', () => {
  test('a Todoist template: preview, then import, then nothing new the second time', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'import');
    await signInWithStorage(page, user, '/settings');
    const section = await openImport(page);
    const form = section.getByRole('form', { name: 'Import' });
    await form.getByLabel('Format').selectOption({ label: 'Todoist project (CSV template)' });
    await form.getByLabel('File').setInputFiles(path.join(fixtures, 'todoist-template.csv'));
    await form.getByRole('button', { name: 'Preview' }).click();

    await expect(section.getByText('Ready to import 10 todos')).toBeVisible();
    await expect(
      section.getByText(
        /Ready to import 10 todos \(9 with a due date, 5 repeating\) and 2 new groups\./,
      ),
    ).toBeVisible();
    // Focus moves to the preview, for keyboard and screen-reader users.
    await expect(section.getByRole('heading', { name: 'Preview' })).toBeFocused();
    const table = section.getByRole('table', { name: 'The todos' });
    await expect(table.getByRole('row')).toHaveCount(11);
    await expect(
      table.getByRole('row', {
        // The next 1st of a month: "Tomorrow" on the last day of one, "Today" on the 1st.
        name: /Send the invoice Work (\w{3},? 1 \w{3,4}\.?( \d{4})?|Today|Tomorrow) every month/,
      }),
    ).toBeVisible();
    const skipped = section.getByRole('list', { name: 'Skipped: 3 rows' });
    await expect(skipped.getByRole('listitem')).toHaveText([
      'Line 18: It has no title',
      'Line 20: The row has 15 cells; the header names 14',
      'Line 21: Its TYPE "bogus" is not task, section or note',
    ]);
    await expect(
      section.getByRole('list', { name: 'Imported with changes: 1 row' }).getByRole('listitem'),
    ).toHaveText([
      'Line 17: Its date "next spring maybe" is not understood: imported without a due date',
    ]);
    await expectNoSeriousA11yViolations(page, 'settings, import preview');

    // The preview changed nothing.
    expect(await user.api.todos.list().expectOk()).toEqual([]);

    await section.getByRole('button', { name: 'Import 10 todos' }).click();
    await expect(section.getByRole('status')).toHaveText(
      /^Imported 10 todos \(9 with a due date, 5 repeating\) and 2 new groups\. \(from todoist-template\.csv\)$/,
    );
    await expect(section.getByRole('heading', { name: 'Import report' })).toBeFocused();

    await page.getByRole('link', { name: 'Todos' }).click();
    await expect(page.getByRole('button', { name: 'Send the invoice', exact: true })).toBeVisible();

    // The same file again: nothing new.
    await page.getByRole('link', { name: 'Settings' }).click();
    const again = await openImport(page);
    await again.getByLabel('Format').selectOption('todoist-csv');
    await again.getByLabel('File').setInputFiles(path.join(fixtures, 'todoist-template.csv'));
    await again.getByRole('button', { name: 'Preview' }).click();
    await expect(again.getByText('Nothing new to import.')).toBeVisible();
    await expect(again.getByText(/10 todos of this file are already here/)).toBeVisible();
    await expect(again.getByRole('button', { name: 'Import 0 todos' })).toBeDisabled();
  });

  test('a file of the wrong format is refused with the reason', async ({ page, request }) => {
    const user = await registerViaApi(request, 'importbad');
    await signInWithStorage(page, user, '/settings');
    const section = await openImport(page);
    await section.getByLabel('Format').selectOption('ticktick-csv');
    await section.getByLabel('File').setInputFiles(path.join(fixtures, 'todoist-template.csv'));
    await section.getByRole('button', { name: 'Preview' }).click();
    // Beside the file field (docs/product.md, Errors), and gone once another file is chosen.
    const file = section.getByLabel('File');
    await expect(file).toHaveAccessibleDescription(
      'This is not a TickTick backup: no header row naming the columns "List Name" and "Title" was found near the top.',
    );
    await expect(page.getByRole('region', { name: 'Notices' })).not.toContainText('TickTick');
    await section.getByLabel('Format').selectOption('todoist-csv');
    await expect(file).toHaveAccessibleDescription('');
  });

  test('the round trip: export, delete the account, register, import', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'roundtrip');
    const { id: groupId } = await user.api.groups
      .create({ body: { name: 'Errands', color: '#F59E0B' } })
      .expectOk();
    await user.api.todos
      .create({ body: { title: 'Buy stamps', groupId, dueDate: '2026-12-01', dueTime: '10:00' } })
      .expectOk();
    await user.api.todos
      .create({
        body: {
          title: 'Water the plants',
          dueDate: '2026-12-02',
          repeat: { every: 3, unit: 'day', from: 'due' },
        },
      })
      .expectOk();
    await signInWithStorage(page, user, '/settings');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export my data' }).click();
    const exported = await (await downloading).path();
    const csvDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export todos as CSV' }).click();
    const csv = readFileSync(await (await csvDownload).path());
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.toString('utf8')).toContain('Buy stamps,,Errands,false,2026-12-01,10:00,,');

    const form = page.getByRole('form', { name: 'Delete account' });
    await form.getByLabel('Username').fill(user.username);
    await form.getByLabel('Password').fill(user.password);
    await form.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(/\/login$/);

    const again = await apiAs(request, null).auth.register({
      body: {
        username: user.username,
        email: `${user.username}@example.com`,
        password: user.password,
      },
    });
    expect(again.status()).toBe(201);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('button', { name: `Logout ${user.username}` })).toBeVisible();
    await page.goto('/settings');

    const section = await openImport(page);
    await section.getByLabel('File').setInputFiles(exported);
    await section.getByRole('button', { name: 'Preview' }).click();
    await expect(section.getByText(/Ready to import 2 todos .* and 1 new group\./)).toBeVisible();
    await section.getByRole('button', { name: 'Import 2 todos' }).click();
    await expect(section.getByRole('status')).toHaveText(/^Imported 2 todos/);

    await page.getByRole('link', { name: 'Todos' }).click();
    await expect(page.getByRole('button', { name: 'Buy stamps', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Water the plants', exact: true })).toBeVisible();
    await page.getByRole('link', { name: 'Groups' }).click();
    await expect(page.getByText('Errands')).toBeVisible();
  });

  test('the import history: import Google Tasks, see it listed, undo it', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'importundo');
    await signInWithStorage(page, user, '/settings');
    const section = await openImport(page);
    await section.getByLabel('Format').selectOption({ label: 'Google Tasks (Takeout JSON)' });
    await section.getByLabel('File').setInputFiles(path.join(fixtures, 'google-tasks.json'));
    await section.getByRole('button', { name: 'Preview' }).click();
    await expect(
      section.getByText(/^Ready to import 4 todos .* and 2 new groups\.$/),
    ).toBeVisible();
    await section.getByRole('button', { name: 'Import 4 todos' }).click();
    await expect(section.getByRole('status')).toHaveText(/^Imported 4 todos/);

    const history = section.getByRole('list', { name: 'Import history' });
    await expect(history.getByRole('listitem')).toHaveCount(1);
    await expect(history).toContainText(
      'Google Tasks (Takeout JSON), google-tasks.json: 4 todos, 2 new groups',
    );
    await history.getByRole('button', { name: 'Undo this import' }).click();
    await expect(section.getByRole('status')).toHaveText(
      'Moved 4 todos to the trash and deleted 2 groups.',
    );
    await expect(history.getByRole('button', { name: 'Undo this import' })).toHaveCount(0);
    await expect(history).toContainText('undone');

    expect(await user.api.todos.list().expectOk()).toEqual([]);
    await page.goto('/trash');
    await expect(page.getByRole('heading', { name: 'Trash' })).toBeVisible();
    await expect(page.getByText('Renew the passport')).toBeVisible();
  });

  test('screens: the preview at phone and desktop width, light and dark', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'importshot');
    await signInWithStorage(page, user, '/settings');
    const preview = async () => {
      const section = await openImport(page);
      if (!(await section.getByText('Ready to import').isVisible())) {
        await section.getByLabel('Format').selectOption('ticktick-csv');
        await section.getByLabel('File').setInputFiles(path.join(fixtures, 'ticktick-backup.csv'));
        await section.getByRole('button', { name: 'Preview' }).click();
      }
      await expect(section.getByText(/^Ready to import 14 todos/)).toBeVisible();
      await section.scrollIntoViewIfNeeded();
    };
    await screenshotScreen(page, 'settings-import', preview);
    await expectNoSeriousA11yViolations(page, 'settings, import preview (TickTick)');
  });
});
