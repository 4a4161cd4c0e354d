import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import {
  registerViaApi,
  screenshotDir,
  setTheme,
  signInWithStorage,
  type ApiUser,
} from '../support/fixtures';
import { E2E_PORT } from '../support/ports';

/**
 * The daily loop's low items, as a person meets them in the browser: the palette opens the todo
 * picked, quick add reads "by Dec 12" and "next week" as Todoist does, a tag's colours have names,
 * a dismissed permission question is answered with a sentence, a phone whose session was ended
 * elsewhere is told why, and an in-app reminder shows in every open tab, answered once.
 */

const list = (page: Page) => page.getByRole('list', { name: 'Todos' });
const quickAdd = (page: Page) => page.getByRole('combobox', { name: 'Quick add a todo' });

const pad = (n: number) => String(n).padStart(2, '0');
const isoOf = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** A todo's fields as the server has it, by title. */
async function saved(user: ApiUser, title: string) {
  const todos = await user.api.todos.list().expectOk();
  return todos.find((todo) => todo.title === title);
}

test('the command palette opens the todo picked, from /todos and from another screen', async ({
  page,
}) => {
  const user = await registerViaApi(page.request, 'palettetodo');
  await user.api.todos.create({ body: { title: 'Renew the car insurance' } }).expectOk();
  await user.api.todos.create({ body: { title: 'Water plants' } }).expectOk();
  await signInWithStorage(page, user);
  await expect(list(page).getByRole('listitem')).toHaveCount(2);
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  const detail = page.getByRole('dialog', { name: 'Renew the car insurance' });
  for (const start of ['/todos', '/statistics']) {
    if (start !== '/todos') {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Stats' })
        .click();
      await expect(page.getByRole('heading', { name: 'Your Statistics' })).toBeVisible();
    }
    await page.keyboard.press('Control+k');
    await expect(palette.getByRole('combobox', { name: 'Command or todo' })).toBeFocused();
    await page.keyboard.type('insurance');
    await expect(palette.getByRole('option')).toHaveText(['Renew the car insurance']);
    await page.keyboard.press('Enter');
    // The todo itself, not a search listing one row.
    await expect(detail).toBeVisible();
    await expect(page).toHaveURL(/\/todos$/);
    await expect(page.getByRole('searchbox', { name: 'Search todos' })).toHaveValue('');
    await detail.getByRole('button', { name: 'Close' }).click();
    await expect(detail).toBeHidden();
    await expect(list(page).getByRole('listitem')).toHaveCount(2);
  }
});

test('quick add reads "by Dec 12" and "next week" as Todoist does, the words out of the title', async ({
  page,
}) => {
  const user = await registerViaApi(page.request, 'bynext');
  await signInWithStorage(page, user);
  const field = quickAdd(page);
  await field.click();

  const today = new Date();
  const december = new Date(today.getFullYear(), 11, 12);
  if (isoOf(december) < isoOf(today)) december.setFullYear(today.getFullYear() + 1);
  await field.fill('Send the tax return by Dec 12');
  await expect(page.getByText('Saved as “Send the tax return”')).toBeVisible();
  await field.press('Enter');
  await expect(
    list(page).getByRole('checkbox', { name: 'Send the tax return', exact: true }),
  ).toBeVisible();
  await expect
    .poll(async () => (await saved(user, 'Send the tax return'))?.dueDate)
    .toBe(isoOf(december));

  // "next week" is the Monday after today, not today and seven days.
  const monday = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  monday.setDate(monday.getDate() + ((8 - monday.getDay()) % 7 || 7));
  await field.fill('Plan the garden next week');
  await expect(page.getByText('Saved as “Plan the garden”')).toBeVisible();
  await field.press('Enter');
  await expect(
    list(page).getByRole('checkbox', { name: 'Plan the garden', exact: true }),
  ).toBeVisible();
  await expect
    .poll(async () => (await saved(user, 'Plan the garden'))?.dueDate)
    .toBe(isoOf(monday));
});

test("a tag's colour menu names its colours, as the groups' do", async ({ page }) => {
  const user = await registerViaApi(page.request, 'tagcolour');
  await user.api.todos.create({ body: { title: 'Slides', tags: ['work'] } }).expectOk();
  await signInWithStorage(page, user, '/groups');
  const colour = page.getByLabel('Colour of tag work');
  await expect(colour).toBeVisible();
  const names = await colour.getByRole('option').allTextContents();
  expect(names).toContain('Red');
  expect(names).toContain('Blue');
  expect(names.filter((name) => /#[0-9a-f]{3,6}/i.test(name))).toEqual([]);
  await colour.selectOption({ label: 'Red' });
  await expect(colour.locator('option:checked')).toHaveText('Red');
  await page.reload();
  await expect(page.getByLabel('Colour of tag work').locator('option:checked')).toHaveText('Red');
});

test('the notification question closed unanswered: Reminders says they stay off, and how to allow them', async ({
  page,
}) => {
  // The browser's question closed without an answer, as a person dismissing the prompt does.
  await page.addInitScript(() => {
    Object.defineProperty(Notification, 'permission', { get: () => 'default' });
    Notification.requestPermission = () => Promise.resolve('default');
  });
  const user = await registerViaApi(page.request, 'dismissed');
  await signInWithStorage(page, user, '/settings/reminders');
  const section = page.getByRole('region', { name: 'Reminders' });
  const button = section.getByRole('button', { name: 'Turn on reminders on this device' });
  await button.click();
  const note = section.getByRole('alert');
  await expect(note).toContainText('closed without an answer, so reminders stay off');
  await expect(note).toContainText('choose Allow');
  await expect(button).toBeVisible();
});

test('a phone whose session was ended from another device lands on /login told why', async ({
  browser,
  page,
}) => {
  const user = await registerViaApi(page.request, 'endedphone');
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const onPhone = await phone.newPage();
  await onPhone.goto('/login');
  await onPhone.getByLabel('Username').fill(user.username);
  await onPhone.getByLabel('Password').fill(user.password);
  await onPhone.getByRole('button', { name: 'Login' }).click();
  await expect(onPhone.getByRole('button', { name: `Logout ${user.username}` })).toBeVisible();

  // The desktop ends every other session (the phone's among them).
  await user.api.account.endOtherSessions().expectOk();

  await onPhone.reload();
  await expect(onPhone).toHaveURL(/\/login$/);
  await expect(
    onPhone.getByText(/Your session has ended: it expired or was signed out from another device/),
  ).toBeVisible();
  // A person who logs out themselves is not told that.
  await onPhone.getByLabel('Username').fill(user.username);
  await onPhone.getByLabel('Password').fill(user.password);
  await onPhone.getByRole('button', { name: 'Login' }).click();
  await onPhone.getByRole('button', { name: `Logout ${user.username}` }).click();
  await expect(onPhone).toHaveURL(/\/login$/);
  await expect(onPhone.getByText(/Your session has ended/)).toHaveCount(0);
  await phone.close();
});

test('an in-app reminder shows in both open tabs, and Complete in one answers it in both', async ({
  context,
  page,
}) => {
  // The server looks for reminders every 15 s; the one that went out is shown within that.
  test.setTimeout(90_000);
  const user = await registerViaApi(page.request, 'twotabs');
  await signInWithStorage(page, user);
  const other = await context.newPage();
  await other.goto('/todos');
  for (const tab of [page, other]) {
    await expect(quickAdd(tab)).toBeVisible();
  }
  // Due in two hours with a reminder a day before: already past, so it goes out at once.
  const due = new Date(Date.now() + 2 * 60 * 60_000);
  await user.api.todos
    .create({
      body: {
        title: 'Take the medicine',
        dueDate: isoOf(due),
        dueTime: `${pad(due.getHours())}:${pad(due.getMinutes())}`,
        reminders: [1440],
      },
    })
    .expectOk();
  for (const tab of [page, other]) {
    await expect(tab.getByText(/^Reminder: Take the medicine, due/)).toBeVisible({
      timeout: 45_000,
    });
  }
  await other.getByRole('button', { name: 'Complete Take the medicine' }).click();
  await expect(other.getByText(/^Reminder: Take the medicine/)).toBeHidden();
  await expect(page.getByText(/^Reminder: Take the medicine/)).toBeHidden();
  await expect.poll(async () => (await saved(user, 'Take the medicine'))?.completed).toBe(true);
  await other.close();
});

test.describe('the two-factor step of an account with a passkey', () => {
  // Passkeys are for a host name, not an address (passkeys.spec.ts).
  test.use({ baseURL: `http://localhost:${E2E_PORT}` });

  test('shows the passkey button and no error nobody asked for', async ({ page, request }) => {
    const user = await registerViaApi(request, 'mfapasskey');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await signInWithStorage(page, user, '/settings');
    const section = page.getByRole('region', { name: 'Passkeys' });
    await section.getByLabel('Passkey name').fill('E2E laptop');
    await section.getByRole('button', { name: 'Add passkey' }).click();
    await expect(section.getByRole('status')).toContainText('Passkey E2E laptop is added');
    // The account keeps its passkey, but this browser no longer holds it: /login's passkey
    // suggestion then waits instead of signing in by itself, and the password leads on.
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });

    const setup = await user.api.twoFactor.setup().expectOk();
    await user.api.twoFactor
      .enable({ body: { code: TOTP.generate({ secret: Secret.fromBase32(setup.secret) }) } })
      .expectOk();

    await page.getByRole('button', { name: `Logout ${user.username}` }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Two-factor code' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
    // What the step would have started has had its time before the banner is looked for.
    await page.waitForTimeout(1500);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByLabel('Code', { exact: true })).toBeFocused();
  });
});

test("the selection bar's due-date menu: Today, Tomorrow, Next week (the Monday after), a date, none", async ({
  page,
}) => {
  const user = await registerViaApi(page.request, 'bulkweek');
  for (const title of ['Mow the lawn', 'Clean the gutters']) {
    await user.api.todos.create({ body: { title } }).expectOk();
  }
  await signInWithStorage(page, user);
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  const bar = page.getByRole('toolbar', { name: 'Selected todos' });
  const due = bar.getByRole('combobox', { name: 'Due date' });
  await expect(due.getByRole('option')).toHaveText([
    'Due…',
    'Today',
    'Tomorrow',
    'Next week',
    'A date…',
    'No date',
  ]);
  const today = new Date();
  const monday = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  monday.setDate(monday.getDate() + ((8 - monday.getDay()) % 7 || 7));
  await page.getByRole('checkbox', { name: 'Select Mow the lawn' }).check();
  await due.selectOption({ label: 'Next week' });
  await expect.poll(async () => (await saved(user, 'Mow the lawn'))?.dueDate).toBe(isoOf(monday));
  await page.getByRole('checkbox', { name: 'Select Clean the gutters' }).check();
  await due.selectOption({ label: 'Today' });
  await expect
    .poll(async () => (await saved(user, 'Clean the gutters'))?.dueDate)
    .toBe(isoOf(today));
});

test("/trash: each button's name holds the words it shows (axe's label-content-name-mismatch)", async ({
  page,
}) => {
  const user = await registerViaApi(page.request, 'trashname');
  const todo = await user.api.todos
    .create({
      body: {
        title: 'Old receipts',
      },
    })
    .expectOk();
  await user.api.todos.remove({ params: { id: todo.id } }).expectOk();
  await signInWithStorage(page, user, '/trash');
  const forever = page.getByRole('button', { name: /Old receipts/ }).filter({
    hasText: 'Delete forever',
  });
  await expect(forever).toHaveAccessibleName(/^Delete forever\b/);
  // The rule is experimental in axe, so the usual WCAG run leaves it out: asked for by name.
  const results = await new AxeBuilder({ page })
    .withRules(['label-content-name-mismatch'])
    .analyze();
  expect(results.violations.map((violation) => violation.nodes.map((node) => node.html))).toEqual(
    [],
  );
});

test('quick add with chips, the words a Todoist user types: screenshots, phone and desktop, light and dark', async ({
  page,
}) => {
  const user = await registerViaApi(page.request, 'briefchips');
  await user.api.groups.create({ body: { name: 'Home', color: '#84CC16' } }).expectOk();
  await signInWithStorage(page, user);
  mkdirSync(screenshotDir, { recursive: true });
  const understood = page
    .getByRole('form', { name: 'Quick add' })
    .getByRole('list', { name: 'Quick add understood' });
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height });
      const field = quickAdd(page);
      await field.fill('Pay rent tomorrow 9am #Home @bills !1 every month');
      for (const chip of ['Date', 'Time', 'Group', 'Tag', 'Repeat']) {
        await expect(understood.getByText(chip, { exact: true })).toBeVisible();
      }
      // "!1" is no priority ("!", "!!", "!!!" or p1-p3 are): it stays, visibly, in the title.
      await expect(understood.getByText('Priority', { exact: true })).toHaveCount(0);
      await expect(page.getByText('Saved as “Pay rent !1”')).toBeVisible();
      // The field takes the row while it holds words, so the chips lie side by side, phone too.
      const date = await understood.getByText('Date', { exact: true }).boundingBox();
      const time = await understood.getByText('Time', { exact: true }).boundingBox();
      expect(Math.abs((date?.y ?? 0) - (time?.y ?? -100))).toBeLessThan(4);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      await page.screenshot({
        path: path.join(screenshotDir, `loop-quick-add-typed-${theme}-${width}.png`),
      });
      await field.fill('');
    }
  }
});
