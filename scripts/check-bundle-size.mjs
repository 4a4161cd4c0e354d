// Checks the built web app (web/dist, after `npm run build`) against its JavaScript budgets:
// the JavaScript a first visit downloads, gzipped, for /login and for /todos, and that
// the statistics charts are not part of either; and for /statistics, whose lazy chunk
// holds every chart. Size is deterministic, so this runs in `npm test`.
//
// Initial JavaScript of a route = the scripts index.html loads (classic and module, with every
// chunk they import statically, transitively) + the route's lazy chunk (if the route has one)
// with its static imports. Dynamic import() targets are not followed.
//
// Usage: node scripts/check-bundle-size.mjs [--dist=web/dist] [--json]
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const distArg = process.argv.find((a) => a.startsWith('--dist='))?.slice(7);
const dist = path.resolve(root, distArg ?? 'web/dist');
const KB = 1000;

/** Route → budget (gzipped bytes) and the name prefixes of its lazy chunks. */
const ROUTES = [
  // 110 KB until /login offered OpenID Connect, passkeys and the two-factor step:
  // with them in the shared first download, /todos grew to 137.8 KB. The sign-in screens now load
  // as their own chunks (web/src/app/router.tsx), Google's button and the second step only when
  // needed, so a signed-in visit skips them (/todos 134.2 KB); the split costs /login 2 KB of
  // chunk overhead: 112.1 KB. 113.5 KB since one date and time format serves every screen
  // (web/src/lib/date-format.ts, docs/decisions/087-completed-part-and-date-format.md) and a
  // change names its tab for the live stream: 113.2 KB. 114.5 KB since every screen tells an
  // unreachable server from being offline and keeps its saved data (web/src/lib/online.ts) and
  // the API client sends If-Match (decisions 111 and 116): 114.0 KB. 116 KB once the API client's
  // route table held the admin, import history, e-mail to task and notification calls: 115.4 KB.
  { route: '/login', budget: 123 * KB, chunks: ['login-route', 'auth-route'] },
  // 130 KB until the list was virtualised: @tanstack/react-virtual is 10.4 KB gzipped (what
  // keeps 10,000 todos at 0.6 s instead of 8.5 s, docs/decisions/054-todo-list-at-ten-thousand.md), in the route's own chunk
  // because the first list needs it; /todos was 131.7 KB with it. 135 KB until the daily loop
  // (its quick add line, the row that opens the detail view, Undo of exactly what an edit
  // changed: docs/decisions/090-daily-loop.md) and the task model's list (drag across parents,
  // moves and sorts offline) met in one list: 135.7 KB, the detail view, bulk bar and Markdown
  // each in chunks of their own. 137 KB with the Completed part and the one date format (decision
  // 087): 136.8 KB. 137.5 KB once the todo forms said a refusal beside its field and the
  // selection bar fit a phone in one row (decision 098): 137.1 KB. 139 KB once the detail view
  // saved what is typed and showed a change made elsewhere beside its field (decisions 111 and
  // 116): 138.4 KB. 139.5 KB once a page shared to the app opened the Add Todo form filled in
  // (docs/product.md, Share and bookmarklet): 139.3 KB. 141 KB with the route table above and
  // Enter and the palette opening a todo's detail (decision 147): 140.4 KB. 144 KB with the
  // daily loop (below) and the saved filters' routes and the palette's filters (decision 162;
  // their links and reader load lazily): 143.6 KB.
  { route: '/todos', budget: 153.5 * KB, chunks: ['todos-route'] },
  // The calendar (docs/decisions/167-calendar-drag-on-pointer-events.md): the todos list's fetch
  // and save with the month, the hours and drag by hand, no drag-and-drop library: 124.2 KB when
  // it came, plus about 2 KB as the others.
  { route: '/calendar', budget: 132.5 * KB, chunks: ['calendar-route'] },
  // The first visit's shared JavaScript (what /login loads, 102.8 KB when Insights came) and the
  // statistics chunk: its sections and the Insights charts, all drawn with plain elements and
  // no chart library (7.4 KB). 120 KB is /login's own budget plus 10 KB for the chunk: room for
  // a few more figures, not for a charting library (the smallest usable ones are 20-60 KB).
  { route: '/statistics', budget: 126.5 * KB, chunks: ['statistics-route'], statistics: true },
  // Every other route: what it measured when its budget was set (2026-11-25: 108.7-111.3 KB,
  // /settings 126.0 KB), plus about 2 KB, so a route that takes a heavy import (the contract's
  // schema bundle, a library) fails here. /settings and /trash 1 KB more since their dates and
  // refusals beside fields follow decision 087 (128.9 and 111.5 KB). Each 0.5-1 KB more for
  // the shared code of an unreachable server and If-Match (decisions 111 and 116: /groups
  // 113.2, /settings 130.2, /trash 112.4, /choose-password 111.0 KB). 0.5 KB more where the
  // share route's place in the router tipped them over (/register and /forgot-password 111.1,
  // /reset-password 112.1, /groups 113.6 KB); /settings 1.5 KB more for the AI assistants and
  // Share sections (131.8 KB), 1.5 KB more for the E-mail to task section (decision 140).
  // 2026-11-29: every route 0.5-1 KB more for the shared API client's route table (admin, import
  // history, e-mail to task, notification channels: 111.4-115.4 KB); the Settings sections of
  // other features and the rarely opened ones (AI assistants, Share) load when shown (132.9 KB). /share, the redirect of a shared page to /todos: 109.1 KB, plus 2 KB as the others.
  { route: '/register', budget: 119.5 * KB, chunks: ['register-route'] },
  { route: '/forgot-password', budget: 119 * KB, chunks: ['forgot-password-route'] },
  { route: '/reset-password', budget: 120 * KB, chunks: ['reset-password-route'] },
  { route: '/verify-email', budget: 118.5 * KB, chunks: ['verify-email-route'] },
  { route: '/choose-password', budget: 119.5 * KB, chunks: ['choose-password-route'] },
  { route: '/groups', budget: 122 * KB, chunks: ['groups-route'] },
  // /settings 0.5 KB more for each operation's failure sentence as a message of its own
  // (decision 191: 140.1 KB).
  { route: '/settings', budget: 140.5 * KB, chunks: ['settings-route'] },
  { route: '/share', budget: 117 * KB, chunks: ['share-route'] },
  { route: '/trash', budget: 121.5 * KB, chunks: ['trash-route'] },
  // The operator's page (docs/decisions/131-operator-and-admin-page.md), set as the others were:
  // what it measured when it came (113.3 KB), plus about 2 KB.
  { route: '/admin', budget: 122.5 * KB, chunks: ['admin-route'] },
  // A saved filter's page (decision 162) with the list's code it reads: what it measured when it
  // came (118.7 KB), plus about 1.5 KB; 121 KB with the shared growth below: 120.1 KB. 125.5 KB
  // once its rows write due dates in the one date format, in the app's language (decisions 087
  // and 177: the date-format chunk, 1.4 KB): 125.1 KB.
  { route: '/filters/new', budget: 127 * KB, chunks: ['filters-route'] },
];
// 2026-11-29, second session: every route 0.4-1 KB more for the shared API client's route
// table (account preferences, notification settings and action links, offline flags) and the
// shared confirm dialog; /todos 1.6 KB more for quick add's chips and suggestions, bulk due
// dates and the collapsible subtasks (decision 174) on top of that.
// Every route 3.5 KB more on 2026-11-29 for the message runtime (@lingui/core and its React
// provider, 3.0-3.3 KB; docs/decisions/119-languages.md); /todos, /choose-password, /settings,
// /trash and /admin 0.5 KB more once the shared components and their screens spoke in messages
// (144.8, 116.0, 137.1, 117.7 and 118.8 KB).
// 2026-11-29, third session: every route 0.6-0.8 KB more once the API client's own sentences and
// the error codes' words became messages (decision 178) and the loading sentence of the guards;
// /todos 3.3 KB more for the row menu (decision 181), several reminders (decision 175) and its
// screens in messages (decision 177): 152.8 KB; /calendar 131.6 KB.

/**
 * Each language's catalog is a chunk of its own, loaded before the first render in place of the
 * others. Its budget leaves room for every message of the app in the longest language.
 */
const CATALOG = /^(en|de|fr|es|pt-BR|ja|zh-CN|ar|en-XA|ar-XB)-[\w-]{8}\.js$/;
const CATALOG_BUDGET = 40 * KB;
const LANGUAGES = 10;
/** A route's lazy chunk (web/src/app/router.tsx names them <route>-route): each needs a budget. */
const ROUTE_CHUNK = /^(.+-route)-[\w-]+\.js$/;
/** Chunks that must never be in a route's initial load but /statistics'. */
const STATISTICS_PREFIX = 'statistics';

if (!existsSync(path.join(dist, 'index.html'))) {
  console.error(`No built web app in ${dist}: run \`npm run build\` first.`);
  process.exit(1);
}

const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const entryScripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
const preloads = [...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map(
  (m) => m[1],
);
const fileOf = (url) => path.join(dist, url.replace(/^\//, ''));

const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g;
/** The file and everything it imports statically. */
function closure(file, seen = new Set()) {
  if (seen.has(file) || !existsSync(file)) return seen;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const match of code.matchAll(STATIC_IMPORT)) {
    closure(path.resolve(path.dirname(file), match[1]), seen);
  }
  return seen;
}

const gzipSize = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
const assets = readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
const initial = new Set();
for (const url of [...entryScripts, ...preloads]) closure(fileOf(url), initial);

let failed = false;
const report = [];
for (const { route, budget, chunks, statistics: ownsStatistics = false } of ROUTES) {
  const files = new Set(initial);
  for (const asset of assets.filter((a) => chunks.some((prefix) => a.startsWith(prefix)))) {
    closure(path.join(dist, 'assets', asset), files);
  }
  const sizes = [...files].map((file) => ({
    file: path.relative(dist, file),
    gzip: gzipSize(file),
  }));
  const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
  const statistics = ownsStatistics
    ? []
    : sizes.filter((s) => path.basename(s.file).startsWith(STATISTICS_PREFIX));
  const ok = total <= budget && statistics.length === 0;
  failed ||= !ok;
  report.push({ route, total, budget, ok, files: sizes, statisticsInInitialLoad: statistics });
}
for (const asset of assets) {
  const prefix = ROUTE_CHUNK.exec(asset)?.[1];
  if (prefix && !ROUTES.some(({ chunks }) => chunks.includes(prefix))) {
    failed = true;
    report.push({ route: prefix, ok: false, problem: `the route chunk ${asset} has no budget` });
  }
}
const catalogs = assets.filter((asset) => CATALOG.test(asset));
if (catalogs.length !== LANGUAGES) {
  failed = true;
  report.push({
    route: 'catalogs',
    ok: false,
    problem: `${catalogs.length} catalog chunks, not one per language (${LANGUAGES})`,
  });
}
for (const asset of catalogs) {
  const total = gzipSize(path.join(dist, 'assets', asset));
  const ok = total <= CATALOG_BUDGET;
  failed ||= !ok;
  report.push({
    route: `catalog ${CATALOG.exec(asset)?.[1]}`,
    total,
    budget: CATALOG_BUDGET,
    ok,
    files: [{ file: `assets/${asset}`, gzip: total }],
    statisticsInInitialLoad: [],
  });
}
const statisticsChunks = assets.filter((a) => a.startsWith(STATISTICS_PREFIX));
if (statisticsChunks.length === 0) {
  failed = true;
  report.push({
    route: '/statistics',
    ok: false,
    problem: `no lazy chunk named ${STATISTICS_PREFIX}*.js: the chart must load only on /statistics`,
  });
}

if (process.argv.includes('--json')) {
  console.info(JSON.stringify(report, null, 2));
} else {
  for (const r of report) {
    if (r.problem) {
      console.info(`✗ ${r.route}: ${r.problem}`);
      continue;
    }
    const mark = r.ok ? '✓' : '✗';
    console.info(
      `${mark} ${r.route}: ${(r.total / KB).toFixed(1)} KB gzipped initial JavaScript (budget ${r.budget / KB} KB)`,
    );
    for (const f of r.files)
      console.info(`    ${(f.gzip / KB).toFixed(1).padStart(6)} KB  ${f.file}`);
    if (r.statisticsInInitialLoad.length > 0) {
      console.info(`    the statistics chunk is in the initial load of ${r.route}`);
    }
  }
  if (statisticsChunks.length > 0) {
    console.info(`✓ /statistics: chart in ${statisticsChunks.join(', ')}, loaded on demand`);
  }
}
process.exit(failed ? 1 : 0);
