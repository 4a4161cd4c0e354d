// Import cycles among the sources, type-only imports included (`npm run lint`, a stage of
// `npm test`). ESLint's import-x/no-cycle skips `import type`, so a cycle made of types alone
// (config.ts ↔ a feature's module, say) would pass it; this check reads every import and export
// of contract/src, server/src and web/src with TypeScript's own scanner and lists each cycle.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const roots = ['contract/src', 'server/src', 'web/src'].map((dir) => path.join(root, dir));

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (/\.tsx?$/.test(entry.name) && !/\.d\.ts$/.test(entry.name)) yield full;
  }
}

/** The source file an import names, or null for a package or a file outside the sources. */
function resolve(from, specifier) {
  let base;
  if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else if (specifier.startsWith('#web/')) base = path.join(root, 'web/src', specifier.slice(5));
  else if (specifier.startsWith('@tally/contract/'))
    base = path.join(root, 'contract/src', specifier.slice('@tally/contract/'.length));
  else if (specifier === '@tally/contract') base = path.join(root, 'contract/src/index');
  else return null;
  const stem = base.replace(/\.(js|ts|tsx)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, path.join(stem, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

const graph = new Map();
for (const dir of roots) {
  for (const file of sources(dir)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.map(({ fileName }) => resolve(file, fileName)).filter(Boolean);
    graph.set(file, [...new Set(targets)]);
  }
}

// Tarjan's strongly connected components: every component of more than one file is a cycle.
let index = 0;
const indexOf = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function visit(file) {
  indexOf.set(file, index);
  low.set(file, index);
  index += 1;
  stack.push(file);
  onStack.add(file);
  for (const next of graph.get(file) ?? []) {
    if (!graph.has(next)) continue;
    if (!indexOf.has(next)) {
      visit(next);
      low.set(file, Math.min(low.get(file), low.get(next)));
    } else if (onStack.has(next)) {
      low.set(file, Math.min(low.get(file), indexOf.get(next)));
    }
  }
  if (low.get(file) === indexOf.get(file)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(path.relative(root, member));
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  }
}
for (const file of graph.keys()) if (!indexOf.has(file)) visit(file);

if (cycles.length > 0) {
  console.error(`Import cycles (type-only imports included): ${cycles.length}`);
  for (const cycle of cycles) console.error(`  ${cycle.join(' ↔ ')}`);
  process.exit(1);
}
console.info(`No import cycles among ${graph.size} files (type-only imports included)`);
