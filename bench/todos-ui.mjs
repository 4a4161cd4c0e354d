// `node bench/todos-ui.mjs [--sizes=10,200,3000,10000] [--port=4141] [--label=after] [--task-model] [--saved-filters] [--language=de]`
// /todos in a real browser: for a user with N todos in 5 groups, mostly completed
// (a year of use), the production build served by Tally itself on a fresh SQLite DATA_DIR,
// driven in Chromium. Measures the time from pressing Login to the first row of the list on
// screen, and through the Event Timing API (the numbers INP is made of; PerformanceObserver
// type 'event', durationThreshold 16) each interaction: toggling a todo, switching filter tabs
// (All → No Group → a group → All), Hide completed on and off (where the build has it), opening
// the new-todo form and the edit form, each keystroke typed in their title fields, saving an
// edit. An interaction under 16 ms has no entry and is counted as 16 ms (an upper bound).
// --language=de (any tag of web/src/locales): the browser speaks that language, so the app does,
// and the controls are found by their words in its catalog.
// Needs `npm run build` first and Chromium (CHROME_PATH, else /usr/bin/chromium). Prints a table
// (median and slowest per N) and writes bench/results/todos-ui-<label>.{json,md}.
/* global window, document, requestAnimationFrame, MutationObserver */
// (The functions handed to page.evaluate and addInitScript run in the page.)
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { waitUntilHealthy } from './lib/server.mjs';
import { openDatabase } from './lib/sql.mjs';
import { createDatabase, PASSWORD, seed } from './lib/seed.mjs';
import { median } from './lib/measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const resultsDir = path.join(here, 'results');
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((arg) => /^--([^=]+)=(.*)$/.exec(arg))
    .filter(Boolean)
    .map((match) => [match[1], match[2]]),
);
const SIZES = (args.sizes ?? '10,200,3000,10000').split(',').map(Number);
const PORT = Number(args.port ?? 4141);
const LABEL = args.label ?? new Date().toISOString().slice(0, 10);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium';
/** A step that takes longer than this is reported as "timeout" and the size's run stops. */
const STEP_TIMEOUT_MS = Number(args.timeout ?? 30_000);
const TYPED = 'Buy milk';
/** --task-model: the task model's tags, priorities and 2,000 subtasks in 10,000 (seed.mjs). */
const TASK_MODEL = process.argv.includes('--task-model');
/**
 * --saved-filters: three saved filters per user, so /todos counts them above the list on every
 * change (features/filters, evaluated in the browser over all N todos).
 */
const SAVED_FILTERS = process.argv.includes('--saved-filters');
const LANGUAGE = args.language ?? 'en';

/** A catalog's translations, msgid to msgstr (web/src/locales/<tag>.po). */
function readCatalog(tag) {
  const file = path.join(root, 'web/src/locales', `${tag}.po`);
  if (!existsSync(file)) {
    console.error(`No catalog for --language=${tag} in web/src/locales.`);
    process.exit(1);
  }
  const messages = new Map();
  let id = null;
  let field = null;
  const entry = { msgid: '', msgstr: '' };
  const unquote = (text) => JSON.parse(text);
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const start = /^(msgid|msgstr) (".*")$/.exec(line);
    if (start) {
      if (start[1] === 'msgid' && id !== null) messages.set(id, entry.msgstr);
      field = start[1];
      entry[field] = unquote(start[2]);
      if (field === 'msgid') id = null;
      else id = entry.msgid;
    } else if (/^".*"$/.test(line) && field) {
      entry[field] += unquote(line);
      if (field === 'msgstr') id = entry.msgid;
    }
  }
  if (id !== null) messages.set(id, entry.msgstr);
  return messages;
}
const catalog = LANGUAGE === 'en' ? new Map() : readCatalog(LANGUAGE);
/** An English message's words in the language of the run. */
const say = (message) => catalog.get(message) || message;
/** A message with a placeholder ("Edit {title}") as a pattern of its whole text in the language. */
const sayPattern = (message) =>
  new RegExp(
    `^${say(message)
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{\w+\}/g, '.+')}$`,
  );
const ROW = `[aria-label="${say('Todos')}"] li`;

if (!existsSync(path.join(root, 'web/dist/index.html'))) {
  console.error('No web/dist: run `npm run build` first.');
  process.exit(1);
}

// --- Data: one user per size, 5 groups, 90 % of the todos completed (all but the newest 5 % and
// one in 20 of the older ones), a third with due dates (seed.mjs's planned users).
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-todos-ui-'));
const target = await createDatabase({ dialect: 'sqlite', dataDir });
const plans = SIZES.map((n) => ({
  username: `ui${n}`,
  groups: 5,
  todos: n,
  events: 200,
  planned: true,
  taskModel: TASK_MODEL,
}));
const users = await seed(target, plans);
{
  const db = openDatabase({ dialect: 'sqlite', file: target.file });
  for (const plan of plans) {
    const { todoIds } = users.get(plan.username);
    const open = (i) => i >= plan.todos * 0.95 || i % 20 === 0;
    const statement = db.raw.prepare('update todos set completed = ? where id = ?');
    db.raw.transaction(() => todoIds.forEach((id, i) => statement.run(open(i) ? 0 : 1, id)))();
    if (SAVED_FILTERS) {
      const saved = db.raw.prepare(
        'insert into saved_filters (user_id, name, color, query, position, created_at) values (?, ?, ?, ?, ?, ?)',
      );
      const { id: userId } = users.get(plan.username);
      [
        ['Soon', 'next 7 days | overdue'],
        ['Group 1 urgent', '#Group 1 & (p1 | p2)'],
        ['Words', 'search: todo & !no date'],
      ].forEach(([name, query], i) => saved.run(userId, name, '#3B82F6', query, i, Date.now()));
    }
  }
  await db.close();
}

const server = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

/** Collects every Event Timing entry that belongs to an interaction. */
function observeEvents() {
  window.__events = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.interactionId) {
        window.__events.push({ id: entry.interactionId, name: entry.name, ms: entry.duration });
      }
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
}

const withTimeout = (promise, ms, what) =>
  Promise.race([
    promise,
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`timeout: ${what} took over ${ms} ms`)), ms),
    ),
  ]);

/** Two frames and a moment: the entries of what just happened have been delivered. */
const settle = (page) =>
  page.evaluate(
    () =>
      new Promise((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 120))),
      ),
  );

async function runSize(browser, n) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: LANGUAGE });
  await page.addInitScript(observeEvents);
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const result = { n, loginMs: null, interactions: {}, error: null };
  try {
    await page.goto(`${ORIGIN}/login`);
    await page.getByLabel(say('Username')).fill(`ui${n}`);
    await page.getByLabel(say('Password')).fill(PASSWORD);
    // The click's own timestamp, and the first frame after the first row is in the document.
    await page.evaluate((row) => {
      window.__shown = new Promise((resolve) => {
        let pressed = 0;
        document.addEventListener(
          'click',
          (event) => {
            if (event.target.closest('button[type="submit"]')) pressed = event.timeStamp;
          },
          true,
        );
        const check = () => {
          if (!document.querySelector(row)) return false;
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - pressed), 0));
          return true;
        };
        const observer = new MutationObserver(() => {
          if (check()) observer.disconnect();
        });
        observer.observe(document.body, { childList: true, subtree: true });
      });
    }, ROW);
    await page.getByRole('button', { name: say('Login'), exact: true }).click();
    await page.waitForURL('**/todos');
    result.loginMs = await withTimeout(
      page.evaluate(() => window.__shown),
      STEP_TIMEOUT_MS,
      'list',
    );
    // The list (every page of it) is in; its rows are what the interactions below act on. (Not
    // 'networkidle': the live updates' event stream stays open.)
    await page.getByText(say('Loading more todos...')).waitFor({ state: 'detached' });
    await settle(page);

    const record = async (name, action) => {
      const from = await page.evaluate(() => window.__events.length);
      await withTimeout(action(), STEP_TIMEOUT_MS, name);
      await withTimeout(settle(page), STEP_TIMEOUT_MS, `${name} (settling)`);
      const entries = await page.evaluate((start) => window.__events.slice(start), from);
      const byInteraction = new Map();
      for (const entry of entries) {
        byInteraction.set(entry.id, Math.max(byInteraction.get(entry.id) ?? 0, entry.ms));
      }
      // No entry: the interaction took under 16 ms.
      const durations = byInteraction.size ? [...byInteraction.values()] : [16];
      (result.interactions[name] ??= []).push(...durations.map((ms) => Math.max(ms, 16)));
    };
    const type = async (name, text) => {
      for (const key of text) await record(name, () => page.keyboard.press(key));
    };

    const firstRow = page.locator(ROW).first();
    const checkbox = firstRow.locator('input[type="checkbox"]').first();
    await record('toggle', () => checkbox.click());
    await record('toggle', () => checkbox.click());

    const tabs = page.getByRole('tablist', { name: say('Filter todos') }).getByRole('tab');
    for (const index of [1, 2, 0, 3, 0]) {
      await record('tab switch', () => tabs.nth(index).click());
    }
    const hide = page.getByRole('switch', { name: say('Hide completed') });
    if ((await hide.count()) > 0) {
      await record('hide completed', () => hide.click());
      await record('hide completed', () => hide.click());
    }

    await record('open form', () => page.getByRole('button', { name: say('Add Todo') }).click());
    const newForm = page.getByRole('form', { name: say('New todo') });
    await newForm.getByLabel(say('Title')).focus();
    await type('typing', TYPED);
    await record('open form', () =>
      page
        .getByRole('button', { name: say('Cancel') })
        .first()
        .click(),
    );

    await record('open form', () =>
      firstRow.getByRole('button', { name: sayPattern('Edit {title}') }).click(),
    );
    const editTitle = page
      .getByRole('form', { name: sayPattern('Edit todo {todoTitle}') })
      .getByLabel(say('Title'));
    await editTitle.focus();
    await page.keyboard.press('End');
    await type('typing', ' ok');
    await record('edit', () =>
      page
        .getByRole('form', { name: sayPattern('Edit todo {todoTitle}') })
        .getByRole('button', { name: say('Save') })
        .click(),
    );
    await page
      .getByRole('form', { name: sayPattern('Edit todo {todoTitle}') })
      .waitFor({ state: 'detached' });
  } catch (error) {
    result.error = String(error.message ?? error).split('\n')[0];
  } finally {
    await page.close().catch(() => undefined);
  }
  return result;
}

const results = [];
let browser;
try {
  await waitUntilHealthy(ORIGIN, { child: server });
  browser = await chromium.launch({
    executablePath: CHROME,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  for (const n of SIZES) {
    const result = await runSize(browser, n);
    results.push(result);
    console.info(`${n} todos: ${JSON.stringify(summarise(result))}`);
  }
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}

function summarise(result) {
  const all = Object.values(result.interactions).flat();
  const slowest = Object.entries(result.interactions)
    .map(([name, values]) => [name, Math.max(...values)])
    .sort((a, b) => b[1] - a[1])[0];
  return {
    n: result.n,
    loginMs: result.loginMs === null ? null : Math.round(result.loginMs),
    count: all.length,
    medianMs: all.length ? median(all) : null,
    slowestMs: slowest ? slowest[1] : null,
    slowestIs: slowest ? slowest[0] : null,
    byName: Object.fromEntries(
      Object.entries(result.interactions).map(([name, values]) => [
        name,
        { median: median(values), max: Math.max(...values), count: values.length },
      ]),
    ),
    error: result.error,
  };
}

const summaries = results.map(summarise);
const fmt = (ms) => (ms === null ? '—' : `${Math.round(ms)} ms`);
const lines = [
  `/todos in Chromium (${LABEL}, language ${LANGUAGE}), load ${os.loadavg()[0].toFixed(2)}`,
  '',
  '| todos | list shown after Login | interactions | median | slowest | per interaction (median / slowest) | note |',
  '|---|---|---|---|---|---|---|',
  ...summaries.map(
    (s) =>
      `| ${s.n.toLocaleString('en')} | ${s.loginMs === null ? '—' : `${(s.loginMs / 1000).toFixed(2)} s`} | ${s.count} | ${fmt(s.medianMs)} | ${s.slowestMs === null ? '—' : `${fmt(s.slowestMs)} (${s.slowestIs})`} | ${Object.entries(
        s.byName,
      )
        .map(([name, v]) => `${name} ${Math.round(v.median)}/${Math.round(v.max)}`)
        .join(', ')} | ${s.error ?? ''} |`,
  ),
];
console.info(`\n${lines.join('\n')}`);
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  path.join(resultsDir, `todos-ui-${LABEL}.json`),
  JSON.stringify({ label: LABEL, date: new Date().toISOString(), results, summaries }, null, 2),
);
writeFileSync(path.join(resultsDir, `todos-ui-${LABEL}.md`), `${lines.join('\n')}\n`);
