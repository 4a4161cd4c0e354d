// `npm run bench:lighthouse`: Lighthouse (mobile, simulated throttling: its defaults) against the
// production build served by Tally itself, on /login and on /todos for a user with 200 todos in
// 5 groups. Needs `npm run build` first, and Chromium: CHROME_PATH, else /usr/bin/chromium.
// Budgets (docs/performance.md, Web budgets): performance >= 95, accessibility 100, best practices
// 100. Writes bench/results/lighthouse-*.json (full reports) and prints the scores.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { createDatabase, dropDatabase, seed } from './lib/seed.mjs';
import { waitUntilHealthy } from './lib/server.mjs';
import { signAccessToken } from './lib/tokens.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const resultsDir = path.join(here, 'results');
const PORT = 4120;
const ORIGIN = `http://localhost:${PORT}`;
const JWT_SECRET = 'lighthouse-secret-that-is-at-least-32-bytes!';
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium';
const BUDGET = { performance: 95, accessibility: 100, 'best-practices': 100 };

if (!existsSync(path.join(root, 'web/dist/index.html'))) {
  console.error('No web/dist: run `npm run build` first.');
  process.exit(1);
}

const dataDir = path.join(os.tmpdir(), 'tally-lighthouse');
const target = await createDatabase({ dialect: 'sqlite', dataDir });
const users = await seed(target, [{ username: 'lighthouse', groups: 5, todos: 200, events: 500 }]);
const user = users.get('lighthouse');

const server = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    JWT_SECRET,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const results = [];
let browser;
try {
  await waitUntilHealthy(ORIGIN, { child: server });
  browser = await puppeteer.launch({
    executablePath: CHROME,
    headless: true,
    args: ['--no-sandbox', '--headless=new'],
  });
  const token = await signAccessToken(JWT_SECRET, {
    id: user.id,
    username: 'lighthouse',
    // Access tokens name their session (decision 045); without it every call answers 401.
    sessionId: user.sessionId,
  });

  for (const route of ['/login', '/todos']) {
    const page = await browser.newPage();
    // Signed in for /todos: the token where the web app keeps it (docs/product.md, Sessions: storage key "token").
    await page.goto(`${ORIGIN}/favicon.svg`);
    await page.evaluate(
      (signedIn, value) => {
        localStorage.clear();
        if (signedIn) {
          localStorage.setItem('token', value);
          localStorage.setItem('username', 'lighthouse');
        }
      },
      route !== '/login',
      token,
    );
    // Lighthouse sometimes loses the trace of a run (NO_NAVSTART); such a run has no scores, so
    // it is repeated (at most twice) and the retries are reported.
    let lhr;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const runner = await lighthouse(
        `${ORIGIN}${route}`,
        {
          output: 'json',
          logLevel: 'error',
          onlyCategories: Object.keys(BUDGET),
          disableStorageReset: true,
        },
        undefined,
        page,
      );
      lhr = runner.lhr;
      if (!lhr.runtimeError) break;
      console.info(`${route}: Lighthouse run ${attempt} failed (${lhr.runtimeError.code})`);
    }
    const scores = Object.fromEntries(
      Object.keys(BUDGET).map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
    );
    const failing = Object.values(lhr.audits)
      .filter(
        (audit) =>
          audit.score !== null &&
          audit.score < 1 &&
          audit.scoreDisplayMode !== 'informative' &&
          audit.scoreDisplayMode !== 'manual' &&
          audit.scoreDisplayMode !== 'notApplicable',
      )
      .map((audit) => `${audit.id} (${audit.displayValue ?? audit.score})`);
    const finalUrl = lhr.finalDisplayedUrl ?? lhr.finalUrl;
    results.push({ route, finalUrl, scores, failing });
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(
      path.join(resultsDir, `lighthouse-${route.slice(1)}.json`),
      JSON.stringify(lhr, null, 2),
    );
    await page.close();
  }
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await dropDatabase({ dialect: 'sqlite', dataDir });
}

let ok = true;
for (const r of results) {
  const verdicts = Object.entries(r.scores).map(([id, score]) => {
    const met = score >= BUDGET[id];
    ok &&= met;
    return `${id} ${score}${met ? '' : ` (budget ${BUDGET[id]})`}`;
  });
  console.info(`${r.route} (landed on ${new URL(r.finalUrl).pathname}): ${verdicts.join(', ')}`);
  if (r.failing.length > 0) console.info(`    audits below 1: ${r.failing.join(', ')}`);
}
process.exit(ok ? 0 : 1);
