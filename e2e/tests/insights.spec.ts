import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  screenshotScreen,
  setTheme,
  signInWithStorage,
  type ApiUser,
  screenshotDir,
} from '../support/fixtures';

/**
 * The Insights section of /statistics (docs/product.md, Insights section) against the real server:
 * completions made through the API show in the figures, the heatmap and the group bars; the heatmap
 * is one tab stop moved with the keys; its CSV is the API's heatmap, line for line; axe finds
 * nothing serious; screenshots at 390 px and 1280 px in both themes.
 *
 * The browser runs in Berlin, not in the machine's zone, and the test asks the API in that same
 * zone (x-time-zone), as the page does.
 */
const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE });

/** YYYY-MM-DD in ZONE, `days` from now. */
function dayInZone(days = 0): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(Date.now() + days * 86_400_000));
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** The heatmap's name of a day: "12 completed on Tue 3 Dec". */
function dayName(date: string, completed: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  return `${completed} completed on ${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

const insightsOf = (user: ApiUser) =>
  user.api.statistics
    .insights({ query: { weeks: 52 }, headers: { 'x-time-zone': ZONE } })
    .expectOk();

/** Creates a todo and completes it, in ZONE. */
async function completeTodo(
  user: ApiUser,
  fields: { title: string; groupId?: number | null; dueDate?: string | null },
) {
  const todo = await user.api.todos.create({ body: fields }).expectOk();
  await user.api.todos
    .update({
      params: { id: todo.id },
      body: { groupId: null, ...fields, completed: true },
      headers: { 'x-time-zone': ZONE },
    })
    .expectOk();
}

const insightsRegion = (page: Page) => page.getByRole('region', { name: 'Insights' });
const heatmap = (page: Page) =>
  page.getByRole('grid', { name: 'Completions per day, last 52 weeks' });

test.describe('Insights', () => {
  test('shows completions made through the API, moves through the heatmap with the keys, and its CSV is the API’s', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const user = await registerViaApi(request, 'insights');
    const work = await user.api.groups
      .create({
        body: {
          name: 'Work',
          color: '#EF4444',
        },
      })
      .expectOk();
    const home = await user.api.groups
      .create({
        body: {
          name: 'Home',
          color: '#10B981',
        },
      })
      .expectOk();
    const today = dayInZone();
    await completeTodo(user, { title: 'Report', groupId: work.id, dueDate: today });
    await completeTodo(user, { title: 'Slides', groupId: work.id, dueDate: today });
    await completeTodo(user, {
      title: 'Invoice',
      groupId: work.id,
      dueDate: dayInZone(-2),
    });
    await completeTodo(user, { title: 'Plants', groupId: home.id });
    await completeTodo(user, { title: 'Milk' });
    await user.api.todos.create({ body: { title: 'Still open' } }).expectOk();

    const api = await insightsOf(user);
    expect(api.to).toBe(today);
    expect(api.heatmap.at(-1)).toEqual({ date: today, completed: 5 });

    await signInWithStorage(page, user, '/statistics');
    const region = insightsRegion(page);
    const todayCell = heatmap(page).getByRole('gridcell', { name: dayName(today, 5) });
    await expect(todayCell).toBeVisible();

    // The figures.
    await expect(region.getByText('Current streak')).toBeVisible();
    await expect(region.getByText('1 day', { exact: true })).toBeVisible();
    await expect(region.getByText('Longest: 1 day')).toBeVisible();
    await expect(region.getByText('67%')).toBeVisible();
    await expect(region.getByText('2 on time, 1 late')).toBeVisible();
    await expect(region.getByText('From 5 completed todos')).toBeVisible();
    await expect(region.getByText('5 completed in the last 52 weeks')).toBeVisible();
    // Groups, most first, "No Group" for the ungrouped one.
    await expect(page.getByTestId('group-bars').getByRole('listitem')).toHaveText([
      'Work3 completed',
      'Home1 completed',
      'No Group1 completed',
    ]);
    // The activity chart has its value axis: 0 to the largest day's total.
    await expect(page.getByTestId('activity-axis')).toContainText('0');

    // The heatmap is one tab stop, today first; arrows move by week and day, Home and End to
    // the ends.
    await region.getByRole('button', { name: 'Download CSV of completions per day' }).focus();
    await page.keyboard.press('Tab');
    await expect(todayCell).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    const weekBefore = api.heatmap.at(-8);
    await expect(
      heatmap(page).getByRole('gridcell', { name: dayName(weekBefore?.date ?? '', 0) }),
    ).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(todayCell).toBeFocused();
    await page.keyboard.press('Home');
    const first = api.heatmap[0];
    await expect(
      heatmap(page).getByRole('gridcell', { name: dayName(first?.date ?? '', 0) }),
    ).toBeFocused();
    await page.keyboard.press('End');
    await expect(todayCell).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(heatmap(page).locator(':focus')).toHaveCount(0);
    await expect(heatmap(page).locator('[tabindex="0"]')).toHaveCount(1);

    // The CSV, saved by the browser, is the API's heatmap exactly.
    const saved = page.waitForEvent('download');
    await region.getByRole('button', { name: 'Download CSV of completions per day' }).click();
    const download = await saved;
    expect(download.suggestedFilename()).toBe(`tally-completions-per-day-${today}.csv`);
    const csv = await readFile(await download.path(), 'utf8');
    const fresh = await insightsOf(user);
    expect(csv).toBe(
      'date,completed\r\n' +
        fresh.heatmap.map((day) => `${day.date},${day.completed}\r\n`).join(''),
    );
    expect(csv.trimEnd().split('\r\n')).toHaveLength(fresh.heatmap.length + 1);

    // Every chart's table alternative, and axe with them shown.
    for (const chart of ['per day', 'by weekday', 'by hour', 'by group']) {
      await region.getByRole('button', { name: `Show as table: completions ${chart}` }).click();
    }
    await expect(region.getByRole('table', { name: 'Completions by group' })).toContainText(
      'Work3',
    );
    await expect(
      region.getByRole('table', { name: 'Completions per day' }).getByRole('row'),
    ).toHaveCount(fresh.heatmap.length + 1);
    await expectNoSeriousA11yViolations(page, 'insights as tables');
    await region.screenshot({ path: path.join(screenshotDir, 'statistics-insights-tables.png') });

    // Both themes, then the screenshots. At 390 px the heatmap opens at the newest week.
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await expect(todayCell).toBeVisible();
      await expectNoSeriousA11yViolations(page, `insights (${theme})`);
    }
    await page.setViewportSize({ width: 390, height: 900 });
    await page.reload();
    await expect(todayCell).toBeAttached();
    const scroller = page.getByTestId('heatmap-scroller');
    const opened = await scroller.evaluate((box) => ({
      left: box.scrollLeft,
      overflow: box.scrollWidth - box.clientWidth,
    }));
    expect(opened.overflow).toBeGreaterThan(0);
    expect(opened.left).toBeGreaterThanOrEqual(opened.overflow - 1);
    // Today's column is inside the phone's width, the year's first is scrolled out of it.
    const todayBox = await todayCell.boundingBox();
    expect(todayBox?.x).toBeGreaterThan(0);
    expect((todayBox?.x ?? 0) + (todayBox?.width ?? 0)).toBeLessThanOrEqual(390);
    const firstBox = await heatmap(page).getByRole('gridcell').first().boundingBox();
    expect(firstBox?.x).toBeLessThan(0);
    await screenshotScreen(page, 'statistics-insights', () => expect(todayCell).toBeVisible());
  });

  test('tells a new user there is nothing yet', async ({ page, request }) => {
    const user = await registerViaApi(request, 'insights_new');
    await signInWithStorage(page, user, '/statistics');
    const region = insightsRegion(page);
    await expect(
      region.getByText(
        'No todos completed in the last 52 weeks yet. Complete one and your insights start here.',
      ),
    ).toBeVisible();
    await expect(region.getByText('0 days', { exact: true })).toBeVisible();
    await expect(heatmap(page)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'insights, new user');
    await screenshotScreen(page, 'statistics-insights-empty', () =>
      expect(region.getByText('No completions yet')).toBeVisible(),
    );
  });
});
