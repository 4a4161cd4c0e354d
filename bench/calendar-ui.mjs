// `node bench/calendar-ui.mjs [--todos=10000] [--port=4142] [--label=after] [--switches=12]`
// /calendar in a real browser: a user with N todos whose due dates are spread over a year (half
// before today, half after; a third at a time of day, one in five completed), the production
// build served by Tally itself on a fresh SQLite DATA_DIR, driven in Chromium. After Login the
// list loads on /todos; then it measures from the click on "Calendar" in the header to the first
// frame with the month's todos on screen (the route's chunk, the month and its cells), and from
// each click on "Next" to the first frame of the next month. Needs `npm run build` first and
// Chromium (CHROME_PATH, else /usr/bin/chromium). Prints the figures and writes
// bench/results/calendar-ui-<label>.{json,md}.
/* global window, document, requestAnimationFrame, MutationObserver */
// (The functions handed to page.evaluate run in the page.)
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
const N = Number(args.todos ?? 10_000);
const SWITCHES = Number(args.switches ?? 12);
const PORT = Number(args.port ?? 4142);
const LABEL = args.label ?? new Date().toISOString().slice(0, 10);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium';
const TIMEOUT_MS = 60_000;

if (!existsSync(path.join(root, 'web/dist/index.html'))) {
  console.error('No web/dist: run `npm run build` first.');
  process.exit(1);
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-calendar-ui-'));
const target = await createDatabase({ dialect: 'sqlite', dataDir });
const username = `cal${N}`;
const users = await seed(target, [{ username, groups: 5, todos: N, events: 200 }]);
{
  const db = openDatabase({ dialect: 'sqlite', file: target.file });
  const { todoIds } = users.get(username);
  const today = new Date();
  const dayOf = (offset) =>
    new Date(Date.UTC(today.getFullYear(), today.getMonth(), today.getDate() + offset))
      .toISOString()
      .slice(0, 10);
  const statement = db.raw.prepare(
    'update todos set due_date = ?, due_time = ?, completed = ?, duration_minutes = ? where id = ?',
  );
  db.raw.transaction(() =>
    todoIds.forEach((id, i) => {
      const offset = Math.floor((i / todoIds.length) * 365) - 182;
      const timed = i % 3 === 0;
      const time = timed ? `${String(8 + (i % 10)).padStart(2, '0')}:00` : null;
      statement.run(dayOf(offset), time, i % 5 === 0 ? 1 : 0, timed ? 30 + (i % 4) * 15 : null, id);
    }),
  )();
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

let browser;
const result = { n: N, monthShownMs: null, chunkArrivedMs: null, switchesMs: [], error: null };
try {
  await waitUntilHealthy(ORIGIN, { child: server });
  browser = await chromium.launch({
    executablePath: CHROME,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(TIMEOUT_MS);
  await page.goto(`${ORIGIN}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL('**/todos');
  await page.locator('[aria-label="Todos"] li').first().waitFor();
  await page.getByText('Loading more todos...').waitFor({ state: 'detached' });

  // The click's own timestamp, and the first frame after the month shows its todos.
  await page.evaluate(() => {
    window.__shown = new Promise((resolve) => {
      let pressed = 0;
      document.addEventListener(
        'click',
        (event) => {
          if (event.target.closest('a[href="/calendar"]')) pressed = event.timeStamp;
        },
        true,
      );
      const check = () => {
        if (!document.querySelector('td[data-drop-date] [data-todo-id]')) return false;
        requestAnimationFrame(() =>
          setTimeout(() => {
            // When the route's code had arrived, to tell loading it from drawing the month.
            const chunk = performance
              .getEntriesByType('resource')
              .find((entry) => entry.name.includes('calendar-route'));
            resolve({
              shown: performance.now() - pressed,
              chunk: chunk ? chunk.responseEnd - pressed : null,
            });
          }, 0),
        );
        return true;
      };
      const observer = new MutationObserver(() => {
        if (check()) observer.disconnect();
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
  });
  await page.getByRole('link', { name: 'Calendar' }).click();
  const shown = await page.evaluate(() => window.__shown);
  result.monthShownMs = shown.shown;
  result.chunkArrivedMs = shown.chunk;

  for (let i = 0; i < SWITCHES; i += 1) {
    // Back and forth around today, where the todos are.
    const label = i % 4 < 2 ? 'Next' : 'Previous';
    result.switchesMs.push(
      await page.evaluate(
        (name) =>
          new Promise((resolve) => {
            const heading = document.querySelector('h1');
            const before = heading.textContent;
            const button = document.querySelector(`button[aria-label="${name}"]`);
            const observer = new MutationObserver(() => {
              if (heading.textContent === before) return;
              observer.disconnect();
              requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
            });
            observer.observe(heading, { childList: true, subtree: true, characterData: true });
            const start = performance.now();
            button.click();
          }),
        label,
      ),
    );
  }
} catch (error) {
  result.error = String(error.message ?? error).split('\n')[0];
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}

const fmt = (ms) => (ms === null ? '—' : `${Math.round(ms)} ms`);
const lines = [
  `/calendar in Chromium (${LABEL}), load ${os.loadavg()[0].toFixed(2)}`,
  '',
  '| todos | month shown after the click on Calendar | its code arrived | switching months: median | slowest | note |',
  '|---|---|---|---|---|---|',
  `| ${N.toLocaleString('en')} | ${fmt(result.monthShownMs)} | ${fmt(result.chunkArrivedMs)} | ${
    result.switchesMs.length ? fmt(median(result.switchesMs)) : '—'
  } | ${result.switchesMs.length ? fmt(Math.max(...result.switchesMs)) : '—'} | ${result.error ?? ''} |`,
];
console.info(lines.join('\n'));
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  path.join(resultsDir, `calendar-ui-${LABEL}.json`),
  JSON.stringify({ label: LABEL, date: new Date().toISOString(), result }, null, 2),
);
writeFileSync(path.join(resultsDir, `calendar-ui-${LABEL}.md`), `${lines.join('\n')}\n`);
if (result.error) process.exitCode = 1;
