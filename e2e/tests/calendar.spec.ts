import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  setTheme,
  signInWithStorage,
  type ApiUser,
} from '../support/fixtures';

/**
 * The calendar (/calendar): drag a todo to another day and to a time in the week view with the
 * mouse and with a finger, Undo it, swipe between days on a phone, move one with the keyboard only,
 * resize a block (and Undo it); axe on the month and the week. Screenshots go to /tmp/shots-calendar, out of the repository.
 */

const SHOTS = '/tmp/shots-calendar';
const pad = (n: number) => String(n).padStart(2, '0');

/** The browser's local date `days` from today, as the API takes it. */
function day(days: number) {
  const now = new Date();
  const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const todoOf = (user: ApiUser, id: number) => user.api.todos.get({ params: { id } }).expectOk();

const chip = (page: Page, title: string) =>
  page.getByRole('button', { name: title }).and(page.locator('[data-todo-id]'));

/** Another day of the shown week than today (so the drop moves it). */
async function otherDayOfWeek(page: Page): Promise<string> {
  const dates = await page
    .locator('[data-drop-timed=""]')
    .evaluateAll((columns) => columns.map((column) => (column as HTMLElement).dataset.dropDate));
  const other = dates.find((date) => date !== day(0));
  if (!other) throw new Error('no other day in the week');
  return other;
}

/** The point of the week view's column for `date` at `hour` o'clock, scrolled into view. */
async function slot(page: Page, date: string, hour: number) {
  const column = page.locator(`[data-drop-timed=""][data-drop-date="${date}"]`);
  await column.evaluate(
    (element, y) => {
      const scroller = element.closest('[role="region"]');
      if (scroller) scroller.scrollTop = y;
    },
    (hour - 2) * 44,
  );
  const box = await column.boundingBox();
  if (!box) throw new Error('no column');
  return { x: box.x + box.width / 2, y: box.y + ((hour * 60 + 5) * 44) / 60 };
}

async function mouseDrag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 10, from.y + 10, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

async function center(page: Page, title: string) {
  const box = await chip(page, title).first().boundingBox();
  if (!box) throw new Error(`no chip ${title}`);
  return { x: box.x + box.width / 2, y: box.y + Math.min(box.height / 2, 8) };
}

test.describe('calendar', () => {
  test('drag to another day and to a time with the mouse, Undo; axe passes', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'calmouse');
    const todo = await user.api.todos
      .create({
        body: {
          title: 'Drag me',
          dueDate: day(0),
        },
      })
      .expectOk();
    await signInWithStorage(page, user, '/calendar');
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(chip(page, 'Drag me')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'calendar month');

    // Month: onto another day of the grid.
    const target = day(0).endsWith('-01') ? day(1) : day(-1);
    const cell = await page.locator(`td[data-drop-date="${target}"]`).boundingBox();
    if (!cell) throw new Error('no cell');
    await mouseDrag(page, await center(page, 'Drag me'), {
      x: cell.x + cell.width / 2,
      y: cell.y + cell.height - 10,
    });
    await expect.poll(async () => (await todoOf(user, todo.id)).dueDate).toBe(target);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await todoOf(user, todo.id)).dueDate).toBe(day(0));

    // Week: onto 10:00 of another day.
    await page.getByRole('button', { name: 'Week' }).click();
    await expectNoSeriousA11yViolations(page, 'calendar week');
    const other = await otherDayOfWeek(page);
    await mouseDrag(page, await center(page, 'Drag me'), await slot(page, other, 10));
    await expect
      .poll(async () => {
        const { dueDate, dueTime } = await todoOf(user, todo.id);
        return `${dueDate} ${dueTime}`;
      })
      .toBe(`${other} 10:00`);
    await expect(page.locator(`[data-block="${todo.id}"]`)).toBeVisible();
  });

  test('drag to a time with a finger', async ({ browser, request }) => {
    const context = await browser.newContext({
      hasTouch: true,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    const user = await registerViaApi(request, 'caltouch');
    const todo = await user.api.todos
      .create({
        body: {
          title: 'Touch me',
          dueDate: day(0),
          dueTime: '09:00',
        },
      })
      .expectOk();
    await signInWithStorage(page, user, '/calendar');
    await page.getByRole('button', { name: 'Week' }).click();
    const other = await otherDayOfWeek(page);
    const to = await slot(page, other, 11);
    const from = await center(page, 'Touch me');
    const cdp = await context.newCDPSession(page);
    const touch = (
      type: 'touchStart' | 'touchMove' | 'touchEnd',
      point?: { x: number; y: number },
    ) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: point ? [{ x: point.x, y: point.y }] : [],
      });
    await touch('touchStart', from);
    for (let i = 1; i <= 10; i += 1) {
      await touch('touchMove', {
        x: from.x + ((to.x - from.x) * i) / 10,
        y: from.y + ((to.y - from.y) * i) / 10,
      });
    }
    await touch('touchEnd');
    await expect
      .poll(async () => {
        const { dueDate, dueTime } = await todoOf(user, todo.id);
        return `${dueDate} ${dueTime}`;
      })
      .toBe(`${other} 11:00`);
    await context.close();
  });

  test('swipe between days on a phone', async ({ browser, request }) => {
    const context = await browser.newContext({
      hasTouch: true,
      isMobile: true,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    const user = await registerViaApi(request, 'calswipe');
    await signInWithStorage(page, user, '/calendar');
    const dayView = page.getByRole('button', { name: 'Day', exact: true });
    await dayView.click();
    await expect(dayView).toHaveAttribute('aria-pressed', 'true');
    const heading = page.getByRole('heading', { level: 1 });
    const today = await heading.textContent();
    if (!today) throw new Error('no heading');
    const calendar = page.getByRole('region', { name: 'Calendar' });
    const box = await calendar.boundingBox();
    if (!box) throw new Error('no calendar');
    const cdp = await context.newCDPSession(page);
    // A finger across the hours, sideways: 160 px in ten steps.
    const swipe = async (dx: number) => {
      const from = { x: box.x + box.width / 2 - dx / 2, y: box.y + 200 };
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
      for (let i = 1; i <= 10; i += 1) {
        await cdp.send('Input.dispatchTouchEvent', {
          type: 'touchMove',
          touchPoints: [{ x: from.x + (dx * i) / 10, y: from.y + i }],
        });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    // A finger to the left: the next day; to the right: the day before.
    await swipe(-160);
    await expect(heading).not.toHaveText(today);
    await swipe(160);
    await expect(heading).toHaveText(today);
    await swipe(160);
    await expect(heading).not.toHaveText(today);
    const yesterday = await heading.textContent();
    if (!yesterday) throw new Error('no heading');
    await swipe(-160);
    await expect(heading).toHaveText(today);
    // Three days turn by three: from today's three to the three that end yesterday.
    await page.getByRole('button', { name: '3 days' }).click();
    await expect(heading).toHaveText(new RegExp(`^${today} – `));
    await swipe(160);
    await expect(heading).toHaveText(new RegExp(` – ${yesterday}$`));
    await context.close();
  });

  test('move one with the keyboard only, and resize a block', async ({ page, request }) => {
    const user = await registerViaApi(request, 'calkeys');
    // The page's clock stands at 9:54 on the shown day, today or yesterday, whichever 9:54 has
    // passed: a clock ahead of the real one would find the just-issued token expired.
    const now = new Date();
    const shown = now.getHours() * 60 + now.getMinutes() >= 9 * 60 + 54 ? 0 : -1;
    const todo = await user.api.todos
      .create({
        body: {
          title: 'Plan with keys',
          dueDate: day(shown),
          dueTime: '09:00',
          durationMinutes: 60,
        },
      })
      .expectOk();
    await user.api.todos.create({ body: { title: 'Someday' } }).expectOk();
    // Six minutes before ten: the red "now" line lies across the 9:00 block's bottom edge, and a
    // drag that starts on the edge must still resize the block.
    const [year, month, date] = day(shown).split('-').map(Number) as [number, number, number];
    await page.clock.setFixedTime(new Date(year, month - 1, date, 9, 54));
    await signInWithStorage(page, user, '/calendar');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Week' }).click();

    await chip(page, 'Plan with keys').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Move "Plan with keys" to…' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Date')).toBeFocused();
    await dialog.getByLabel('Date').fill(day(shown + 1));
    await dialog.getByLabel('Time').fill('14:30');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect
      .poll(async () => {
        const { dueDate, dueTime } = await todoOf(user, todo.id);
        return `${dueDate} ${dueTime}`;
      })
      .toBe(`${day(shown + 1)} 14:30`);

    // Back to 9:00 on the shown day (the next may be in the next week), then the block's bottom
    // edge drags an hour longer.
    await user.api.todos
      .patch({ params: { id: todo.id }, body: { dueDate: day(shown), dueTime: '09:00' } })
      .expectOk();
    await page.reload();
    await page.getByRole('button', { name: 'Week' }).click();
    await expect(chip(page, 'Plan with keys')).toBeVisible();
    await page.getByRole('region', { name: 'Hours' }).evaluate((element) => {
      element.scrollTop = 7 * 44;
    });
    const handle = page.locator(`[data-resize="${todo.id}"]`);
    const box = await handle.boundingBox();
    if (!box) throw new Error('no handle');
    const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await mouseDrag(page, start, { x: start.x, y: start.y + 44 });
    await expect.poll(async () => (await todoOf(user, todo.id)).durationMinutes).toBe(120);
    // Shift+ArrowDown: a quarter of an hour longer.
    await chip(page, 'Plan with keys').focus();
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(async () => (await todoOf(user, todo.id)).durationMinutes).toBe(135);
    // The new length's Undo puts the old one back.
    await expect(page.getByText('Changed the duration of "Plan with keys"')).toBeVisible();
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await todoOf(user, todo.id)).durationMinutes).toBe(120);
  });

  test('screenshots: phone and desktop, light and dark', async ({ page, request }) => {
    // Eight full-page pictures and two reloads.
    test.setTimeout(120_000);
    const user = await registerViaApi(request, 'calshots');
    const titles = ['Standup', 'Write report', 'Gym', 'Call the bank', 'Groceries', 'Review PR'];
    for (const [i, title] of titles.entries()) {
      await user.api.todos
        .create({
          body: {
            title,
            dueDate: day(i % 3),
            dueTime: i % 2 ? `${pad(9 + i)}:00` : undefined,
            durationMinutes: i % 2 ? 45 + i * 15 : undefined,
          },
        })
        .expectOk();
    }
    await user.api.todos
      .create({
        body: {
          title: 'Water plants',
          dueDate: day(0),
          repeat: { every: 2, unit: 'day', from: 'due' },
        },
      })
      .expectOk();
    await user.api.todos.create({ body: { title: 'Someday: learn Go' } }).expectOk();
    await signInWithStorage(page, user, '/calendar');
    mkdirSync(SHOTS, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      for (const [name, viewport] of [
        ['phone', { width: 390, height: 844 }],
        ['desktop', { width: 1280, height: 800 }],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.getByRole('button', { name: 'Month' }).click();
        await expect(chip(page, 'Standup')).toBeVisible();
        await page.screenshot({ path: `${SHOTS}/month-${name}-${theme}.png`, fullPage: true });
        await page.getByRole('button', { name: name === 'phone' ? '3 days' : 'Week' }).click();
        await expect(page.locator('[data-drop-timed=""]').first()).toBeVisible();
        await page.screenshot({ path: `${SHOTS}/week-${name}-${theme}.png`, fullPage: true });
      }
    }
  });
});
