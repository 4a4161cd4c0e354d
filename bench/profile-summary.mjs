// Summarises V8 CPU profiles (node --cpu-prof) written by `npm run bench -- --profile`:
// the functions with the most self time, and the share of time spent under selected callers.
// Usage: node bench/profile-summary.mjs bench/results/profiles/sqlite/*.cpuprofile [--top=25]
import { readFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const top = Number(args.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
for (const file of args.filter((a) => !a.startsWith('--'))) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const interval = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    interval.set(id, (interval.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  let total = 0;
  for (const [id, micros] of interval) {
    const node = byId.get(id);
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
      (url.includes('/server/') ? 'tally' : url.startsWith('node:') ? 'node' : '');
    const key = `${functionName || '(anonymous)'} ${where} [${pkg}]`;
    self.set(key, (self.get(key) ?? 0) + micros);
    total += micros;
  }
  const byPackage = new Map();
  for (const [key, micros] of self) {
    const pkg = /\[(.*)\]$/.exec(key)?.[1] || '(native/other)';
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
  }
  console.log(`\n${file}: ${(total / 1e6).toFixed(1)} s sampled`);
  console.log('Self time by package:');
  for (const [pkg, micros] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    console.log(`  ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${pkg}`);
  }
  console.log(`Top ${top} functions by self time:`);
  for (const [key, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${key}`);
  }
}
