import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  setTheme,
  signInWithStorage,
  uniqueUsername,
} from '../support/fixtures';

/**
 * Tally in the browser's language (docs/decisions/177-todo-screens-in-every-language.md): the
 * main walk in German and in Arabic (right to left) at a phone's and a desktop's width, with the
 * words of the catalogs (web/src/locales) and a date typed in the language; axe on the main
 * screens in Arabic; and the pseudo-language en-XA (every text 40 % longer) measured in the page
 * for clipped text and a page wider than the window. Screenshots go to SHOTS_DIR, else
 * /tmp/shots-i18n.
 */

const shots = process.env.SHOTS_DIR ?? '/tmp/shots-i18n';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/** What each language's walk types, and the words of its catalog the screens must show. */
const WALKS = [
  {
    language: 'de',
    locale: 'de-DE',
    dir: 'ltr',
    typed: 'Zahnarzt morgen 9 Uhr',
    title: 'Zahnarzt',
    words: {
      register: 'Registrieren',
      username: 'Benutzername',
      email: 'E-Mail',
      password: 'Passwort',
      createAccount: 'Konto erstellen',
      empty: 'Noch keine Aufgaben. Füge oben eine hinzu!',
      addTodo: 'Aufgabe hinzufügen',
      titleField: 'Titel',
      understood: 'Von „Schnell hinzufügen“ erkannt',
      createTodo: 'Aufgabe erstellen',
      todos: 'Aufgaben',
      tomorrow: 'Morgen',
      main: 'Hauptnavigation',
      stats: 'Statistik',
      statsHeading: 'Deine Statistik',
      allTime: 'Statistik seit Beginn',
      settings: 'Einstellungen',
      account: 'Konto',
      language: 'Sprache',
      logout: /^Abmelden \(/,
    },
  },
  {
    language: 'ar',
    locale: 'ar',
    dir: 'rtl',
    // "Dentist tomorrow at 9:30": غدا (tomorrow) and الساعة (the hour) of quick-add-languages.ts.
    typed: 'طبيب الأسنان غدا الساعة 9:30',
    title: 'طبيب الأسنان',
    words: {
      register: 'إنشاء حساب',
      username: 'اسم المستخدم',
      email: 'البريد الإلكتروني',
      password: 'كلمة المرور',
      createAccount: 'إنشاء حساب',
      empty: 'لا توجد مهام بعد. أضف واحدة بالأعلى!',
      addTodo: 'إضافة مهمة',
      titleField: 'العنوان',
      understood: 'ما فهمته الإضافة السريعة',
      createTodo: 'إنشاء المهمة',
      todos: 'المهام',
      tomorrow: 'غدًا',
      main: 'التنقل الرئيسي',
      stats: 'الإحصاءات',
      statsHeading: 'إحصاءاتك',
      allTime: 'إحصاءات كل الأوقات',
      settings: 'الإعدادات',
      account: 'الحساب',
      language: 'اللغة',
      logout: /^تسجيل الخروج \(/,
    },
  },
] as const;

/** The page never scrolls sideways: longer words wrap instead of widening it. */
async function expectNoWiderThanWindow(page: Page) {
  const { pageWidth, windowWidth } = await page.evaluate(() => ({
    pageWidth: document.documentElement.scrollWidth,
    windowWidth: window.innerWidth,
  }));
  expect(pageWidth).toBeLessThanOrEqual(windowWidth);
}

/** Whether the element is inside the window on both sides (no part cut off at either edge). */
async function expectWithinWindow(page: Page, element: Locator) {
  const box = await element.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box).not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
}

for (const walk of WALKS) {
  test.describe(`in ${walk.locale}`, () => {
    test.use({ locale: walk.locale });

    for (const viewport of VIEWPORTS) {
      test(`register, quick add with a date, complete, Statistics and Settings, ${viewport.name}`, async ({
        page,
      }) => {
        test.setTimeout(90_000);
        mkdirSync(shots, { recursive: true });
        const shot = (name: string) =>
          page.screenshot({
            path: path.join(shots, `${walk.language}-${name}-${viewport.width}.png`),
          });
        const w = walk.words;
        await page.setViewportSize({ width: viewport.width, height: viewport.height });

        await page.goto('/login');
        const html = page.locator('html');
        await expect(html).toHaveAttribute('lang', walk.language);
        await expect(html).toHaveAttribute('dir', walk.dir);
        await page.getByRole('link', { name: w.register }).click();
        await expect(page).toHaveURL(/\/register$/);
        const username = uniqueUsername(`lang${walk.language}`);
        await page.getByLabel(w.username).fill(username);
        await page.getByLabel(w.email).fill(`${username}@example.com`);
        await page.getByLabel(w.password).fill('lantern orchard 51');
        await shot('register');
        await page.getByRole('button', { name: w.createAccount }).click();
        await expect(page).toHaveURL(/\/todos$/);
        await expect(page.getByText(w.empty)).toBeVisible();
        const logout = page.getByRole('button', { name: w.logout });
        await expect(logout).toContainText(username);
        // "Logout (name)" keeps its words whole, inside the window, at every width.
        await expectWithinWindow(page, logout);

        await page.getByRole('button', { name: w.addTodo, exact: true }).click();
        await page.getByRole('textbox', { name: w.titleField }).fill(walk.typed);
        const understood = page.getByRole('list', { name: w.understood });
        await expect(understood).toContainText(w.tomorrow);
        await shot('quick-add');
        await page.getByRole('button', { name: w.createTodo }).click();
        const list = page.getByRole('list', { name: w.todos, exact: true });
        const row = list.getByRole('listitem').filter({ hasText: walk.title });
        await expect(row).toContainText(w.tomorrow);
        // The date and time were read out of the title.
        await expect(list.getByRole('checkbox', { name: walk.title, exact: true })).toBeVisible();
        await shot('todos');
        await expectNoWiderThanWindow(page);
        if (walk.language === 'ar' && viewport.name === 'phone') {
          await setTheme(page, 'dark');
          await expect(row).toContainText(w.tomorrow);
          await shot('todos-dark');
          await setTheme(page, 'light');
        }

        const done = list.getByRole('checkbox', { name: walk.title, exact: true });
        await done.click();
        await expect(done).toBeChecked();

        await page
          .getByRole('navigation', { name: w.main })
          .getByRole('link', { name: w.stats })
          .click();
        await expect(page.getByRole('heading', { name: w.statsHeading })).toBeVisible();
        await expect(page.getByRole('region', { name: w.allTime })).toBeVisible();
        await shot('statistics');
        await expectNoWiderThanWindow(page);

        await page.getByRole('link', { name: w.settings }).click();
        await expect(page.getByRole('heading', { name: w.settings, level: 1 })).toBeVisible();
        await expect(page.getByRole('region', { name: w.account })).toBeVisible();
        const language = page.getByRole('region', { name: w.language });
        await expect(language.getByRole('heading', { name: w.language })).toBeVisible();
        await expect(language.getByRole('combobox', { name: w.language })).toBeVisible();
        await shot('settings');
        await expectNoWiderThanWindow(page);
        await expect(html).toHaveAttribute('dir', walk.dir);
      });
    }
  });
}

test.describe('in Arabic, axe', () => {
  test.use({ locale: 'ar' });

  for (const viewport of VIEWPORTS) {
    test(`the main screens have no serious violation, ${viewport.name}`, async ({ page }) => {
      test.setTimeout(120_000);
      const user = await registerViaApi(page.request, 'axear');
      await user.api.todos.create({ body: { title: 'دفع الإيجار', priority: 3 } }).expectOk();
      await user.api.todos
        .create({
          body: {
            title: 'شراء الحليب',
            tags: ['منزل'],
          },
        })
        .expectOk();
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await signInWithStorage(page, user);
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      for (const theme of ['light', 'dark'] as const) {
        await page.goto('/todos');
        await setTheme(page, theme);
        const list = page.getByRole('list', { name: 'المهام', exact: true });
        await expect(list.getByRole('listitem')).toHaveCount(2);
        await expectNoSeriousA11yViolations(page, `todos ar ${theme} ${viewport.name}`);

        await list.getByRole('button', { name: 'دفع الإيجار', exact: true }).click();
        await expect(page.getByRole('dialog', { name: 'دفع الإيجار' })).toBeVisible();
        await expectNoSeriousA11yViolations(page, `detail ar ${theme} ${viewport.name}`);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();

        await page.goto('/statistics');
        await expect(page.getByRole('region', { name: 'إحصاءات كل الأوقات' })).toBeVisible();
        await expectNoSeriousA11yViolations(page, `statistics ar ${theme} ${viewport.name}`);

        await page.goto('/settings');
        await expect(page.getByRole('region', { name: 'الحساب' })).toBeVisible();
        await expect(page.getByRole('region', { name: 'اللغة' })).toBeVisible();
        await expectNoSeriousA11yViolations(page, `settings ar ${theme} ${viewport.name}`);
      }
      await page.goto('/login');
      await page.evaluate(() => localStorage.clear());
      await page.goto('/login');
      await expect(page.getByLabel('اسم المستخدم')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `login ar ${viewport.name}`);
      await page.goto('/register');
      await expect(page.getByLabel('البريد الإلكتروني')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `register ar ${viewport.name}`);
    });
  }
});

/**
 * Text the design cuts on purpose, with an ellipsis (`truncate`) or after some lines
 * (`line-clamp-*`): the person's own words (todo titles, descriptions, tag, group and filter
 * names, the signed-in name), whose whole is in the detail view or a title attribute. Each clipped
 * element must be one of these, named by the class that cuts it.
 */
const CUT_ON_PURPOSE = /(?:^|\s)(?:truncate|line-clamp-\d+)(?:\s|$)/;

/**
 * Cut by the design (CUT_ON_PURPOSE), or a field whose whole text is its title (the quick-add
 * example, longer than a phone's field in every language).
 */
const onPurpose = (element: Clipped) =>
  CUT_ON_PURPOSE.test(element.className) ||
  (/^(?:input|select)$/.test(element.tag) && element.title.startsWith(element.text));

interface Clipped {
  text: string;
  tag: string;
  className: string;
  /** The whole text where the element shows it on hover (title). */
  title: string;
  /** The text's width (a control's: as measured), and the width it is given. */
  scrollWidth: number;
  clientWidth: number;
}

/**
 * Every text the page cuts, and how much wider the page is than the window:
 * - an element with text of its own whose text is wider than its box where its overflow is
 *   hidden, clipped, scrolled or ends in an ellipsis;
 * - a field's placeholder or value, and a select's chosen option, wider than the control's
 *   content box: a control draws its text itself, so its scrollWidth says nothing; the text is
 *   measured with a canvas in the control's own font;
 * - a row that scrolls sideways (its overflow auto or scroll), whose end is out of sight.
 * Screen-reader-only text (sr-only) is clipped by design and skipped.
 */
function measureInPage() {
  const clipped: Clipped[] = [];
  const context = document.createElement('canvas').getContext('2d');
  /** What a native select keeps for its arrow, beside its content box's text. */
  const SELECT_ARROW = 20;
  const describe = (element: HTMLElement, text: string, width: number, box: number): Clipped => ({
    text: text.replace(/\s+/g, ' ').trim().slice(0, 60),
    tag: element.tagName.toLowerCase(),
    className: typeof element.className === 'string' ? element.className : '',
    title: (element.getAttribute('title') ?? '').replace(/\s+/g, ' ').trim(),
    scrollWidth: Math.ceil(width),
    clientWidth: Math.floor(box),
  });
  for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
    if (element.closest('.sr-only, [hidden], [aria-hidden="true"], script, style, svg')) continue;
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    if (element.matches('option, textarea')) continue;
    if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement) {
      const text =
        element instanceof HTMLSelectElement
          ? (element.selectedOptions[0]?.text ?? '')
          : /^(?:text|search|email|url|tel|password|number|)$/.test(element.type)
            ? element.value || element.placeholder
            : '';
      if (text.trim() === '' || !context || element.clientWidth === 0) continue;
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      context.letterSpacing = style.letterSpacing === 'normal' ? '0px' : style.letterSpacing;
      const width = context.measureText(text).width;
      const box =
        element.clientWidth -
        parseFloat(style.paddingInlineStart) -
        parseFloat(style.paddingInlineEnd) -
        (element instanceof HTMLSelectElement && style.appearance !== 'none' ? SELECT_ARROW : 0);
      if (width > box + 1) clipped.push(describe(element, text, width, box));
      continue;
    }
    // A tab list scrolls sideways on purpose on a phone (every tab is reached with the arrow keys
    // and by a swipe); any other row that scrolls hides what is past its end.
    const scrolls =
      (style.overflowX === 'auto' || style.overflowX === 'scroll') &&
      element.getAttribute('role') !== 'tablist';
    if (scrolls && element.scrollWidth > element.clientWidth + 1) {
      clipped.push(describe(element, element.innerText, element.scrollWidth, element.clientWidth));
      continue;
    }
    const ownText = Array.from(element.childNodes)
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent ?? '')
      .join('')
      .trim();
    if (ownText === '') continue;
    const cuts =
      style.overflowX !== 'visible' ||
      style.overflow !== 'visible' ||
      style.textOverflow === 'ellipsis';
    if (cuts && element.scrollWidth > element.clientWidth + 1) {
      clipped.push(describe(element, ownText, element.scrollWidth, element.clientWidth));
    }
  }
  return {
    clipped,
    pageWidth: document.documentElement.scrollWidth,
    windowWidth: window.innerWidth,
  };
}

/** Fails on text cut where the design does not cut it, and on a page wider than the window. */
async function expectNothingCut(page: Page, screen: string, cutOnPurpose: Clipped[]) {
  const { clipped, pageWidth, windowWidth } = await page.evaluate(measureInPage);
  const unintended = clipped.filter((element) => !onPurpose(element));
  cutOnPurpose.push(...clipped.filter(onPurpose));
  // Soft: the walk goes on, so that one run names every screen's cuts.
  expect
    .soft(
      unintended.map(
        (e) => `${e.tag} "${e.text}" ${e.scrollWidth}>${e.clientWidth} (${e.className})`,
      ),
      `text cut on ${screen}`,
    )
    .toEqual([]);
  expect
    .soft(pageWidth, `page wider than the window on ${screen}`)
    .toBeLessThanOrEqual(windowWidth);
}

test.describe('in the pseudo-language en-XA (40 % longer)', () => {
  test.use({ locale: 'en-XA' });

  for (const viewport of VIEWPORTS) {
    test(`no text is cut and no page is wider than the window, ${viewport.name}`, async ({
      page,
    }, testInfo) => {
      test.setTimeout(120_000);
      mkdirSync(shots, { recursive: true });
      const cutOnPurpose: Clipped[] = [];
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      const check = async (screen: string) => {
        await expectNothingCut(page, screen, cutOnPurpose);
        await page.screenshot({
          path: path.join(shots, `en-XA-${screen}-${viewport.width}.png`),
          fullPage: true,
        });
      };

      await page.goto('/login');
      await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
      await expect(page.locator('input[autocomplete^="username"]')).toBeVisible();
      await check('login');
      await page.goto('/register');
      await expect(page.locator('input[type="email"]')).toBeVisible();
      await check('register');

      const user = await registerViaApi(page.request, 'pseudo');
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      await user.api.todos
        .create({
          body: {
            title: 'Renew the passport before the summer holidays start',
            dueDate: tomorrow,
            dueTime: '09:30',
            tags: ['errands', 'family'],
            priority: 3,
          },
        })
        .expectOk();
      await user.api.todos
        .create({
          body: {
            title: 'Pay rent',
            dueDate: tomorrow,
            repeat: { every: 1, unit: 'month', from: 'due' },
          },
        })
        .expectOk();
      await user.api.todos.create({ body: { title: 'Buy milk', tags: ['shop'] } }).expectOk();
      await signInWithStorage(page, user);
      await expect(page.getByRole('checkbox', { name: 'Pay rent', exact: true })).toBeVisible();
      await check('todos');

      await page.getByRole('button', { name: 'Pay rent', exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Pay rent' })).toBeVisible();
      await check('detail');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();

      await page.goto('/settings');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('section h2').nth(3)).toBeVisible();
      // Every section in, the ones loaded later too (the bookmarklet's field among them): their
      // "Loading..." line is the only status with words before anything is done.
      await expect(
        page.getByRole('main').getByRole('status').filter({ hasText: /\S/ }),
      ).toHaveCount(0);
      await check('settings');

      await page.goto('/statistics');
      await expect(page.locator('section h2').nth(2)).toBeVisible();
      await check('statistics');

      // The cuts the design makes on purpose, named for the report.
      await testInfo.attach('cut-on-purpose', {
        body: JSON.stringify(cutOnPurpose, null, 2),
        contentType: 'application/json',
      });
      console.log(
        `cut on purpose (${viewport.name}):`,
        [
          ...new Set(
            cutOnPurpose.map(
              (e) =>
                `${e.tag}.${e.className.match(CUT_ON_PURPOSE)?.[0].trim() ?? 'title'} "${e.text}"`,
            ),
          ),
        ].join('; ') || 'none',
      );
    });
  }
});
