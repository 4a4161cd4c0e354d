import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Repeat } from '@tally/contract';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  screenshotDir,
  screenshotScreen,
  setTheme,
  signInWithStorage,
} from '../support/fixtures';

/**
 * Planning (docs/product.md, Todos screen): quick add, due dates on rows and in the forms,
 * repeating todos completed and skipped, the Today and Upcoming views; axe and screenshots of
 * the views and of the new-todo form with its chips. The browser and the server run on the same
 * machine, so "today" is the same day for both (the browser sends its zone as x-time-zone).
 */

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** The local date `days` from today, as the API takes it and as the rows label it. */
function day(days: number) {
  const now = new Date();
  const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  const iso = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const short = `${WEEKDAYS[date.getDay()]} ${date.getDate()} ${MONTHS[date.getMonth()]}`;
  const label = date.getFullYear() === now.getFullYear() ? short : `${short} ${date.getFullYear()}`;
  return { iso, label, dayOfMonth: date.getDate() };
}

const rowOf = (page: Page, title: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('checkbox', { name: title, exact: true }) });

test.describe('planning', () => {
  test('quick add reads date, time, group and repeat, shown as chips before saving', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'quickadd');
    const home = await user.api.groups
      .create({
        body: {
          name: 'Home',
          color: '#10B981',
        },
      })
      .expectOk();
    await signInWithStorage(page, user, '/todos');
    await page.getByRole('button', { name: 'Add Todo' }).click();
    const form = page.getByRole('form', { name: 'New todo' });
    const title = form.getByLabel('Title', { exact: true });

    // Nothing is read from words that only look like dates.
    await title.fill('check money #home');
    const chips = form.getByRole('list', { name: 'Quick add understood' });
    await expect(chips.getByRole('listitem')).toHaveText([/Group\s*Home/]);
    await title.fill('may the force march on');
    await expect(chips).toBeHidden();

    await title.fill('Pay rent tomorrow 9:00 #home every month');
    const tomorrow = day(1);
    await expect(chips.getByRole('listitem')).toHaveText([
      /Date\s*Tomorrow/,
      /Time\s*09:00/,
      /Group\s*Home/,
      new RegExp(`Repeat\\s*every month on day ${tomorrow.dayOfMonth}`),
    ]);
    await expect(form.getByText('Saved as “Pay rent”')).toBeVisible();
    await expect(form.getByLabel('Due date', { exact: true })).toHaveValue(tomorrow.iso);

    // Removing the time chip puts its words back; typing them again reads them again.
    await form.getByRole('button', { name: 'Remove time 09:00' }).click();
    await expect(form.getByText('Saved as “Pay rent 9:00”')).toBeVisible();
    await expect(title).toBeFocused();
    await title.fill('Pay rent tomorrow 9:30 #home every month');
    await expect(chips.getByRole('listitem')).toHaveCount(4);

    await form.getByRole('button', { name: 'Create Todo' }).click();
    await expect(form).toBeHidden();
    const row = rowOf(page, 'Pay rent');
    await expect(row).toContainText('Tomorrow 09:30');
    await expect(row.getByRole('img', { name: /^Repeats every month on day/ })).toBeVisible();
    await expect(row.getByText('Home')).toBeVisible();

    const [saved] = await user.api.todos.list().expectOk();
    expect(saved).toMatchObject({
      title: 'Pay rent',
      groupId: home.id,
      dueDate: tomorrow.iso,
      dueTime: '09:30',
      repeat: { every: 1, unit: 'month', monthDay: tomorrow.dayOfMonth, from: 'due' },
    });
  });

  test('edits a due date, completes a repeating todo and skips one', async ({ page, request }) => {
    const user = await registerViaApi(request, 'repeat');
    await user.api.todos.create({ body: { title: 'Dentist', dueDate: day(2).iso } }).expectOk();
    await user.api.todos
      .create({
        body: {
          title: 'Water plants',
          dueDate: day(0).iso,
          repeat: { every: 3, unit: 'day', from: 'due' },
        },
      })
      .expectOk();
    await user.api.todos
      .create({
        body: {
          title: 'Stand-up',
          dueDate: day(-1).iso,
          dueTime: '09:00',
          repeat: { every: 1, unit: 'day', from: 'due' },
        },
      })
      .expectOk();
    await signInWithStorage(page, user, '/todos');

    // Overdue, in words as well as in red.
    await expect(rowOf(page, 'Stand-up')).toContainText('Overdue:Yesterday 09:00');

    // Edit the due date, then clear it.
    await rowOf(page, 'Dentist').getByRole('button', { name: 'Edit Dentist' }).click();
    const edit = page.getByRole('form', { name: 'Edit todo Dentist' });
    await expect(edit.getByLabel('Due date', { exact: true })).toHaveValue(day(2).iso);
    await edit.getByLabel('Due date', { exact: true }).fill(day(5).iso);
    await edit.getByLabel('Time', { exact: true }).fill('14:15');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(rowOf(page, 'Dentist')).toContainText(`${day(5).label} 14:15`);
    await rowOf(page, 'Dentist').getByRole('button', { name: 'Edit Dentist' }).click();
    await edit.getByRole('button', { name: 'Clear due date' }).click();
    await expect(edit.getByLabel('Time', { exact: true })).toBeDisabled();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(rowOf(page, 'Dentist')).not.toContainText('Due');
    expect(
      (await user.api.todos.list().expectOk()).find((t) => t.title === 'Dentist'),
    ).toMatchObject({
      dueDate: null,
      dueTime: null,
    });

    // Completing a repeating todo counts it and keeps it, due on its next date.
    const water = rowOf(page, 'Water plants');
    await water.getByRole('checkbox', { name: 'Water plants' }).check();
    await expect(page.getByTestId('undo-toast')).toContainText(
      `Completed "Water plants". Next due ${day(3).label}.`,
    );
    await expect(water.getByRole('checkbox', { name: 'Water plants' })).not.toBeChecked();
    await expect(water).toContainText(day(3).label);

    // Skipping an occurrence moves it on without a completion.
    await rowOf(page, 'Stand-up').getByRole('button', { name: 'Skip Stand-up' }).click();
    await expect(rowOf(page, 'Stand-up')).toContainText('Today 09:00');
    await expect(page.getByText('Stand-up: skipped. Next due Today 09:00.')).toBeVisible();

    expect(await user.api.statistics.total().expectOk()).toMatchObject({ todosCompleted: 1 });
  });

  test('the detail view lists, removes and adds reminders, on a phone and a desktop', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'reminders');
    await user.api.todos
      .create({
        body: {
          title: 'Flight',
          dueDate: day(2).iso,
          dueTime: '09:00',
          reminders: [0, 1440],
        },
      })
      .expectOk();
    await signInWithStorage(page, user, '/todos');
    const open = async () => {
      await page.getByRole('button', { name: 'Flight', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Flight' });
      return { dialog, form: dialog.getByRole('form', { name: 'Edit todo Flight' }) };
    };
    const { form } = await open();
    await expect(form.getByLabel('Reminder', { exact: true })).toHaveValue('1440');
    await expect(form.getByLabel('Reminder 2', { exact: true })).toHaveValue('0');
    await form.getByRole('button', { name: 'Remove reminder 2 (At the due time)' }).click();
    await expect(form.getByLabel('Reminder 2', { exact: true })).toHaveCount(0);
    await form.getByRole('button', { name: 'Add another reminder' }).click();
    await form.getByLabel('Reminder 2', { exact: true }).selectOption({ label: '1 hour before' });
    await form.getByRole('button', { name: 'Add another reminder' }).click();
    await form.getByLabel('Reminder 3', { exact: true }).selectOption({ label: 'At the due time' });
    await expectNoSeriousA11yViolations(page, 'the detail view with three reminders');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect
      .poll(async () => {
        const todos = (await user.api.todos.list().expectOk()) as unknown as {
          reminders: number[];
        }[];
        return todos[0]?.reminders;
      })
      .toEqual([1440, 60, 0]);

    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      for (const [width, height] of [
        [390, 844],
        [1280, 800],
      ] as const) {
        await page.setViewportSize({ width, height });
        const { dialog, form: again } = await open();
        await expect(again.getByLabel('Reminder 3', { exact: true })).toHaveValue('0');
        const add = again.getByRole('button', { name: 'Add another reminder' });
        await add.scrollIntoViewIfNeeded();
        await expect(add).toBeInViewport();
        await dialog.screenshot({
          path: path.join(screenshotDir, `reminders-detail-${theme}-${width}.png`),
        });
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();
      }
    }
  });

  test('Today and Upcoming come from the address, survive reload and back/forward', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const user = await registerViaApi(request, 'views');
    const work = await user.api.groups
      .create({
        body: {
          name: 'Work',
          color: '#EF4444',
        },
      })
      .expectOk();
    const plan: [string, number | null, string?, Repeat?][] = [
      ['Send the invoice', -2],
      ['Call the bank', 0, '16:30'],
      ['Pay rent', 0, undefined, { every: 1, unit: 'month', from: 'due' }],
      ['Team lunch', 1, '12:30'],
      ['Book the dentist', 3],
      ['Plan the holiday', 8],
      ['Someday, maybe', null],
    ];
    for (const [title, offset, dueTime, repeat] of plan) {
      await user.api.todos
        .create({
          body: {
            title,
            ...(offset === null ? {} : { dueDate: day(offset).iso }),
            ...(dueTime ? { dueTime } : {}),
            ...(repeat ? { repeat } : {}),
            ...(title === 'Team lunch' ? { groupId: work.id } : {}),
          },
        })
        .expectOk();
    }
    await signInWithStorage(page, user, '/todos');
    const views = page.getByRole('navigation', { name: 'Todo views' });
    await expect(page.getByRole('tab', { name: 'All (7)' })).toBeVisible();

    const sectionTitles = async () =>
      page
        .getByRole('main')
        .getByRole('region')
        .evaluateAll((sections) =>
          sections.map((section) => [
            section.querySelector('h2')?.textContent,
            Array.from(
              section.querySelectorAll<HTMLInputElement>('input[type=checkbox]'),
              (box) => box.labels?.[0]?.textContent,
            ),
          ]),
        );

    await views.getByRole('link', { name: 'Today' }).click();
    await expect(page).toHaveURL(/\/todos\?view=today$/);
    await expect(page.getByRole('heading', { name: 'Overdue' })).toBeVisible();
    expect(await sectionTitles()).toEqual([
      ['Overdue', ['Send the invoice']],
      ['Today', ['Pay rent', 'Call the bank']],
    ]);

    await views.getByRole('link', { name: 'Upcoming' }).click();
    await expect(page).toHaveURL(/\/todos\?view=upcoming$/);
    await expect(page.getByRole('heading', { name: 'Tomorrow' })).toBeVisible();
    // Polled: the later days come from the whole list, which may arrive after the view.
    await expect.poll(sectionTitles).toEqual([
      ['Today', ['Pay rent', 'Call the bank']],
      ['Tomorrow', ['Team lunch']],
      [day(3).label, ['Book the dentist']],
      // Past its first seven days Upcoming goes on from the list the browser holds.
      [day(8).label, ['Plan the holiday']],
    ]);

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Tomorrow' })).toBeVisible();
    await expect(views.getByRole('link', { name: 'Upcoming' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await page.goBack();
    await expect(page).toHaveURL(/\/todos\?view=today$/);
    await expect(page.getByRole('heading', { name: 'Overdue' })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/todos$/);
    await expect(page.getByRole('tab', { name: 'All (7)' })).toBeVisible();
    await page.goForward();
    await expect(page.getByRole('heading', { name: 'Overdue' })).toBeVisible();

    // Completing the overdue todo in the Today view takes it out of the view. A click, not
    // check(): check() waits to see the box checked, and the row leaves the view as it is.
    await page.getByRole('checkbox', { name: 'Send the invoice' }).click();
    await expect(page.getByRole('heading', { name: 'Overdue' })).toBeHidden();
    await expect(page.getByRole('checkbox', { name: 'Send the invoice' })).toHaveCount(0);

    for (const view of ['today', 'upcoming'] as const) {
      await page.goto(`/todos?view=${view}`);
      const ready = () => expect(page.getByRole('heading', { name: 'Today' })).toBeVisible();
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        await ready();
        await expectNoSeriousA11yViolations(page, `${view} view (${theme})`);
      }
      await screenshotScreen(page, `todos-${view}`, ready);
    }

    // The new-todo form with its chips and a custom repeat.
    await page.goto('/todos');
    const openWithChips = async () => {
      const form = page.getByRole('form', { name: 'New todo' });
      if (!(await form.isVisible())) {
        await page.getByRole('button', { name: 'Add Todo' }).click();
        await form
          .getByLabel('Title', { exact: true })
          .fill('Pay rent tomorrow 9:00 #work every month');
      }
      await expect(form.getByRole('list', { name: 'Quick add understood' })).toBeVisible();
    };
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await openWithChips();
      await expectNoSeriousA11yViolations(page, `new todo with chips (${theme})`);
    }
    await screenshotScreen(page, 'todos-quick-add', openWithChips);

    const openCustom = async () => {
      await openWithChips();
      const form = page.getByRole('form', { name: 'New todo' });
      if (!(await form.getByRole('group', { name: 'Custom repeat' }).isVisible())) {
        await form.getByLabel('Repeat', { exact: true }).selectOption({ label: 'Custom…' });
      }
      await expect(form.getByRole('group', { name: 'Custom repeat' })).toBeVisible();
    };
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await openCustom();
      await expectNoSeriousA11yViolations(page, `custom repeat (${theme})`);
    }
    await screenshotScreen(page, 'todos-custom-repeat', openCustom);
  });
});
