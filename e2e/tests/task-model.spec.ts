import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, screenshotScreen, signInWithStorage } from '../support/fixtures';

/**
 * The richer todo (docs/product.md, Tags, priority, subtasks, start dates and order): quick add
 * with tags and a priority, and subtasks added, completed, counted on their parent and trashed with
 * it; screenshots of the list with them, phone and desktop, light and dark.
 */

const rowOf = (page: Page, title: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('checkbox', { name: title, exact: true }) });

test.describe('tags, priority and subtasks', () => {
  test('quick add reads @tags and a priority as removable chips', async ({ page, request }) => {
    const user = await registerViaApi(request, 'quicktags');
    await signInWithStorage(page, user, '/todos');
    await page.getByRole('button', { name: 'Add Todo' }).click();
    const form = page.getByRole('form', { name: 'New todo' });
    const title = form.getByLabel('Title', { exact: true });
    const chips = form.getByRole('list', { name: 'Quick add understood' });

    await title.fill('Call the bank @finance @phone p1');
    await expect(chips.getByRole('listitem')).toHaveText([
      /Tag\s*finance/,
      /Tag\s*phone/,
      /Priority\s*High/,
    ]);
    // Removing a chip leaves its words in the title.
    await chips.getByRole('button', { name: 'Remove tag phone' }).click();
    await expect(chips.getByRole('listitem')).toHaveText([/Tag\s*finance/, /Priority\s*High/]);
    await expect(form.getByText('Saved as “Call the bank @phone”')).toBeVisible();
    await form.getByRole('button', { name: 'Create Todo' }).click();

    const row = rowOf(page, 'Call the bank @phone');
    await expect(row).toBeVisible();
    await expect(row.getByText('High', { exact: true })).toBeVisible();
    await expect(row.getByText('@finance', { exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'Add Todo' }).click();
    await title.fill('Water plants !!');
    await expect(chips.getByRole('listitem')).toHaveText([/Priority\s*Medium/]);
    await form.getByRole('button', { name: 'Create Todo' }).click();
    await expect(rowOf(page, 'Water plants').getByText('Medium', { exact: true })).toBeVisible();

    const saved = await user.api.todos.list().expectOk();
    expect(saved.map((todo) => [todo.title, todo.tags, todo.priority])).toEqual([
      ['Water plants', [], 2],
      ['Call the bank @phone', ['finance'], 3],
    ]);
  });

  test('subtasks: added, completed, counted on the parent, trashed and restored with it', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'subtasks');
    const parent = await user.api.todos
      .create({
        body: {
          title: 'Move house',
          tags: ['home'],
          priority: 3,
          description: 'Everything by **Friday**\nsecond line',
        },
      })
      .expectOk();
    await user.api.todos.create({ body: { title: 'Book a van', parentId: parent.id } }).expectOk();
    await user.api.todos.create({ body: { title: 'Unrelated' } }).expectOk();
    await signInWithStorage(page, user, '/todos');

    // Add a subtask in the browser: a new todo, then "Subtask of" in its edit form.
    await page.getByRole('button', { name: 'Add Todo' }).click();
    const form = page.getByRole('form', { name: 'New todo' });
    await form.getByLabel('Title', { exact: true }).fill('Pack books');
    await form.getByRole('button', { name: 'Create Todo' }).click();
    await page.getByRole('button', { name: 'Edit Pack books' }).click();
    const edit = page.getByRole('form', { name: 'Edit todo Pack books' });
    await edit.getByLabel('Subtask of').selectOption({ label: 'Move house' });
    await edit.getByRole('button', { name: 'Save' }).click();

    const parentRow = rowOf(page, 'Move house');
    await expect(parentRow.getByLabel('0 of 2 subtasks done')).toBeVisible();
    // The description's first line, as plain text.
    await expect(parentRow.getByText('Everything by Friday', { exact: true })).toBeVisible();
    // Subtasks sit right under their parent, indented.
    const rows = page.getByRole('list', { name: 'Todos', exact: true }).getByRole('listitem');
    await expect(rows.locator('label')).toHaveText([
      'Unrelated',
      'Move house',
      'Pack books',
      'Book a van',
    ]);
    await expect(rowOf(page, 'Pack books').locator('[data-depth="1"]')).toBeVisible();

    await rowOf(page, 'Book a van').getByRole('checkbox', { name: 'Book a van' }).check();
    await expect(parentRow.getByLabel('1 of 2 subtasks done')).toBeVisible();

    await screenshotScreen(page, 'subtasks', () =>
      expect(rowOf(page, 'Move house').getByLabel('1 of 2 subtasks done')).toBeVisible(),
    );

    // Deleting the parent takes its subtasks to the trash too; Undo brings all of them back.
    await page.getByRole('button', { name: 'Delete Move house', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Confirm Delete' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(rowOf(page, 'Pack books')).toBeHidden();
    await expect(rowOf(page, 'Book a van')).toBeHidden();
    expect((await user.api.todos.list().expectOk()).map((todo) => todo.title)).toEqual([
      'Unrelated',
    ]);
    await page.getByTestId('undo-toast').getByRole('button', { name: 'Undo' }).click();
    await expect(rowOf(page, 'Pack books')).toBeVisible();
    await expect(rowOf(page, 'Move house').getByLabel('1 of 2 subtasks done')).toBeVisible();
  });

  test('manual order: dragged in one browser, the same order in another', async ({
    browser,
    request,
  }) => {
    const user = await registerViaApi(request, 'manual');
    for (const title of ['Third', 'Second', 'First']) {
      await user.api.todos.create({ body: { title } }).expectOk();
    }
    const laptop = await browser.newContext();
    const phone = await browser.newContext();
    const [a, b] = await Promise.all([laptop.newPage(), phone.newPage()]);
    const order = (page: Page) =>
      page.getByRole('list', { name: 'Todos', exact: true }).getByRole('listitem').locator('label');
    await signInWithStorage(a, user, '/todos');
    await expect(order(a)).toHaveText(['First', 'Second', 'Third']);

    // The sort chosen on the laptop is the phone's too: kept on the server.
    await a.getByLabel('Sort').selectOption('manual');
    await expect.poll(() => user.api.todos.sorts().expectOk()).toEqual({ all: 'manual' });
    const streaming = b.waitForResponse((response) => response.url().endsWith('/api/events'));
    await signInWithStorage(b, user, '/todos');
    await streaming;
    await expect(b.getByLabel('Sort')).toHaveValue('manual');
    await expect(order(b)).toHaveText(['First', 'Second', 'Third']);

    // Drag "Third" onto "First": it goes above it, on both screens.
    await rowOf(a, 'Third').dragTo(rowOf(a, 'First'));
    await expect(order(a)).toHaveText(['Third', 'First', 'Second']);
    await expect(order(b)).toHaveText(['Third', 'First', 'Second'], { timeout: 5000 });

    // Alt+↓ on the phone moves "First" one down.
    await rowOf(b, 'First').focus();
    await b.keyboard.press('Alt+ArrowDown');
    await expect(order(b)).toHaveText(['Third', 'Second', 'First']);
    await expect(order(a)).toHaveText(['Third', 'Second', 'First'], { timeout: 5000 });
    await laptop.close();
    await phone.close();
  });

  test('manual order: a todo dropped on a subtask joins its parent; Undo takes it back', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'dragparent');
    const parent = await user.api.todos.create({ body: { title: 'Trip' } }).expectOk();
    await user.api.todos.create({ body: { title: 'Passport', parentId: parent.id } }).expectOk();
    const loose = await user.api.todos.create({ body: { title: 'Tickets' } }).expectOk();
    await signInWithStorage(page, user, '/todos');
    await page.getByLabel('Sort').selectOption('manual');
    const order = page
      .getByRole('list', { name: 'Todos', exact: true })
      .getByRole('listitem')
      .locator('label');
    await expect(order).toHaveText(['Tickets', 'Trip', 'Passport']);

    await rowOf(page, 'Tickets').dragTo(rowOf(page, 'Passport'));
    await expect(order).toHaveText(['Trip', 'Passport', 'Tickets']);
    await expect(rowOf(page, 'Tickets').locator('[data-depth="1"]')).toBeVisible();
    await expect(rowOf(page, 'Trip').getByLabel('0 of 2 subtasks done')).toBeVisible();
    await expect
      .poll(
        async () =>
          (await user.api.todos.list().expectOk()).find((t) => t.id === loose.id)?.parentId,
      )
      .toBe(parent.id);

    await page.getByTestId('undo-toast').getByRole('button', { name: 'Undo' }).click();
    await expect(order).toHaveText(['Tickets', 'Trip', 'Passport']);
    await expect
      .poll(
        async () =>
          (await user.api.todos.list().expectOk()).find((t) => t.id === loose.id)?.parentId,
      )
      .toBeNull();
  });

  test('a Todoist CSV with labels, priorities and indented subtasks imports all three', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'todoist29');
    const csv = [
      'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE',
      'task,Plan the move @home,Boxes first,1,1,Sam,,,en,',
      'task,Book a van @errands,,2,2,Sam,,,en,',
      'task,Compare prices,,3,3,Sam,,,en,',
      'task,Water plants,,4,1,Sam,,,en,',
    ].join('\n');
    await signInWithStorage(page, user, '/settings');
    const section = page.getByRole('region', { name: 'Import' });
    const form = section.getByRole('form', { name: 'Import' });
    await form.getByLabel('Format').selectOption({ label: 'Todoist project (CSV template)' });
    await form.getByLabel('File').setInputFiles({
      name: 'move.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await form.getByRole('button', { name: 'Preview' }).click();
    await section.getByRole('button', { name: 'Import 4 todos' }).click();
    await expect(section.getByRole('heading', { name: 'Import report' })).toBeFocused();

    await page.getByRole('link', { name: 'Todos' }).click();
    const rows = page.getByRole('list', { name: 'Todos', exact: true }).getByRole('listitem');
    await expect(rows.locator('label')).toHaveText([
      'Water plants',
      'Plan the move',
      'Book a van',
      'Compare prices',
    ]);
    const plan = rowOf(page, 'Plan the move');
    await expect(plan.getByText('High', { exact: true })).toBeVisible();
    await expect(plan.getByText('@home', { exact: true })).toBeVisible();
    await expect(plan.getByLabel('0 of 1 subtask done')).toBeVisible();
    await expect(rowOf(page, 'Book a van').getByText('Medium', { exact: true })).toBeVisible();
    await expect(rowOf(page, 'Compare prices').locator('[data-depth="2"]')).toBeVisible();
    const saved = await user.api.todos.list().expectOk();
    const idOf = (title: string) => saved.find((todo) => todo.title === title)?.id ?? null;
    expect(saved.map((todo) => [todo.title, todo.tags, todo.priority, todo.parentId])).toEqual([
      ['Water plants', [], 0, null],
      ['Compare prices', [], 1, idOf('Book a van')],
      ['Book a van', ['errands'], 2, idOf('Plan the move')],
      ['Plan the move', ['home'], 3, null],
    ]);
  });

  test('the Tags section renames, merges, recolours and deletes tags', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'tagsscreen');
    await user.api.todos.create({ body: { title: 'Invoice', tags: ['job'] } }).expectOk();
    await user.api.todos.create({ body: { title: 'Slides', tags: ['work', 'temp'] } }).expectOk();
    await signInWithStorage(page, user, '/groups');
    const tags = page.getByRole('list', { name: 'Your tags' });
    await expect(tags.getByRole('listitem')).toHaveCount(3);
    await screenshotScreen(page, 'tags', () => expect(tags).toBeVisible());

    await page.getByLabel('Colour of tag work').selectOption('#EF4444');
    await expect(page.getByLabel('Colour of tag work')).toHaveValue('#EF4444');
    // Renaming "job" to "Work" merges it into "work", which keeps its spelling and colour.
    await page.getByLabel('Name of tag job').fill('Work');
    await page
      .getByRole('form', { name: 'Tag job' })
      .getByRole('button', { name: 'Rename' })
      .click();
    await expect(tags.getByRole('listitem')).toHaveCount(2);
    await expect(page.getByRole('form', { name: 'Tag work' })).toContainText('2 open todos');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete tag temp' }).click();
    await expect(tags.getByRole('listitem')).toHaveCount(1);
    const saved = await user.api.todos.list().expectOk();
    expect(saved.map((todo) => [todo.title, todo.tags])).toEqual([
      ['Slides', ['work']],
      ['Invoice', ['work']],
    ]);
  });

  test('a description is Markdown: task lists, links in a new tab, no raw HTML run', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'markdown');
    const description = [
      'Pack by **Friday**, see [the checklist](https://example.com/moving)',
      '',
      '- [x] Books',
      '- [ ] Kitchen',
      '',
      '<img src=x onerror="window.__ran = true"> <script>window.__ran = true</script>',
      '[a trap](javascript:window.__ran=true)',
    ].join('\n');
    const todo = await user.api.todos
      .create({
        body: {
          title: 'Move house',
          description,
          tags: ['home'],
          priority: 3,
        },
      })
      .expectOk();
    await signInWithStorage(page, user, '/todos');
    // The list shows the first line as plain text.
    await expect(
      rowOf(page, 'Move house').getByText('Pack by Friday, see the checklist', { exact: true }),
    ).toBeVisible();

    // The trash shows it in full, rendered.
    await user.api.todos.remove({ params: { id: todo.id } }).expectOk();
    await page.goto('/trash');
    const deleted = page.getByRole('list', { name: 'Deleted todos' });
    const link = deleted.getByRole('link', { name: 'the checklist' });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(deleted.getByRole('checkbox')).toHaveCount(2);
    await expect(deleted.getByRole('checkbox').first()).toBeChecked();
    await expect(deleted.getByText('Friday', { exact: true })).toHaveJSProperty(
      'tagName',
      'STRONG',
    );
    await expect(deleted.locator('img, script')).toHaveCount(0);
    await expect(deleted.getByRole('link', { name: 'a trap' })).not.toHaveAttribute(
      'href',
      /javascript/,
    );
    await deleted.getByRole('link', { name: 'a trap' }).click();
    expect(await page.evaluate(() => (window as { __ran?: boolean }).__ran)).toBeUndefined();
    await screenshotScreen(page, 'markdown-description', () => expect(link).toBeVisible());
  });

  test('the bulk bar tags, prioritises and moves picked todos under a parent', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'bulk29');
    const parent = await user.api.todos.create({ body: { title: 'Trip' } }).expectOk();
    await user.api.todos.create({ body: { title: 'Passport' } }).expectOk();
    await user.api.todos.create({ body: { title: 'Tickets' } }).expectOk();
    await signInWithStorage(page, user, '/todos');
    await page.getByRole('button', { name: 'Select' }).click();
    const bar = page.getByRole('toolbar', { name: 'Selected todos' });
    await page.getByRole('checkbox', { name: 'Select Passport' }).check();
    await page.getByRole('checkbox', { name: 'Select Tickets' }).check();
    // The theme switch reloads the page: pick the two again after it.
    await screenshotScreen(page, 'bulk-bar', async () => {
      if (!(await bar.isVisible())) {
        await page.getByRole('button', { name: 'Select' }).click();
        await page.getByRole('checkbox', { name: 'Select Passport' }).check();
        await page.getByRole('checkbox', { name: 'Select Tickets' }).check();
      }
      await expect(bar).toContainText('2 selected');
    });
    await bar.getByRole('textbox', { name: 'Tag' }).fill('travel');
    await bar.getByRole('button', { name: 'Add tag' }).click();
    await expect(page.getByText('2 todos tagged')).toBeVisible();
    await page.getByRole('checkbox', { name: 'Select Passport' }).check();
    await page.getByRole('checkbox', { name: 'Select Tickets' }).check();
    await bar.getByLabel('Set priority').selectOption({ label: 'High' });
    await expect(page.getByText('2 todos given a priority')).toBeVisible();
    await page.getByRole('checkbox', { name: 'Select Passport' }).check();
    await page.getByRole('checkbox', { name: 'Select Tickets' }).check();
    await bar.getByLabel('Move under a parent').selectOption({ label: 'Trip' });
    await expect(page.getByText('2 todos moved under a parent')).toBeVisible();
    await expect
      .poll(async () =>
        (await user.api.todos.list().expectOk())
          .map((todo) => [todo.title, todo.tags, todo.priority, todo.parentId])
          .sort(),
      )
      .toEqual([
        ['Passport', ['travel'], 3, parent.id],
        ['Tickets', ['travel'], 3, parent.id],
        ['Trip', [], 0, null],
      ]);
  });
});
