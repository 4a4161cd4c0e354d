// Summarises V8 CPU profiles (node --cpu-prof) written by `npm run bench -- --profile`: busy time
// (idle left out) from the first HTTP request on (start-up and module loading left out), self
// time by package and by function, and inclusive time of the functions that hold the most.
// With --requests=N (the requests the server answered while profiled) times are also per request.
// Usage: node bench/profile-summary.mjs bench/results/profiles/sqlite/*/*.cpuprofile [--top=25]
//   [--requests=3750] [--inclusive=20]
import { readFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const numberOption = (name, fallback) =>
  Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const top = numberOption('top', 25);
const inclusiveTop = numberOption('inclusive', 20);
const requests = numberOption('requests', 0);
const NOT_BUSY = new Set(['(idle)', '(program)']);
/** A frame that only runs once requests arrive: samples before the first one are start-up. */
const FIRST_REQUEST = /^parserOn/;

const packageOf = (url) =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
  (url.includes('/server/')
    ? 'tally'
    : url.includes('/bench/')
      ? 'bench'
      : url.startsWith('node:')
        ? 'node'
        : '');

for (const file of args.filter((a) => !a.startsWith('--'))) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
    return `${functionName || '(anonymous)'} ${where} [${packageOf(url)}]`;
  };
  const stackOf = (id) => {
    const stack = [];
    for (let at = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at));
    return stack;
  };

  let started = false;
  let busy = 0;
  const self = new Map();
  const inclusive = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const micros = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(profile.samples[i]);
    const stack = stackOf(node.id);
    if (!started) {
      if (!stack.some((frame) => FIRST_REQUEST.test(frame.callFrame.functionName))) continue;
      started = true;
    }
    if (NOT_BUSY.has(node.callFrame.functionName)) continue;
    busy += micros;
    const key = label(node);
    self.set(key, (self.get(key) ?? 0) + micros);
    for (const key of new Set(stack.map(label)))
      inclusive.set(key, (inclusive.get(key) ?? 0) + micros);
  }
  const line = (micros) =>
    `${((100 * micros) / busy).toFixed(1).padStart(5)} %${requests ? ` ${(micros / requests).toFixed(1).padStart(7)} µs/req` : ''}`;
  const byPackage = new Map();
  for (const [key, micros] of self) {
    const pkg = /\[(.*)\]$/.exec(key)?.[1] || '(native/other)';
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
  }
  console.log(
    `\n${file}: ${(busy / 1e6).toFixed(2)} s busy from the first request${requests ? `, ${(busy / requests).toFixed(0)} µs per request` : ''}`,
  );
  console.log('Self time by package:');
  for (const [pkg, micros] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${line(micros)}  ${pkg}`);
  console.log(`Top ${top} functions by self time:`);
  for (const [key, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${line(micros)}  ${key}`);
  console.log(
    `Top ${inclusiveTop} functions by inclusive time (below the event loop's own frames):`,
  );
  for (const [key, micros] of [...inclusive]
    .filter(([key]) => !/^\((root|anonymous)\)/.test(key) && inclusive.get(key) < busy * 0.97)
    .sort((a, b) => b[1] - a[1])
    .slice(0, inclusiveTop))
    console.log(`  ${line(micros)}  ${key}`);
}
