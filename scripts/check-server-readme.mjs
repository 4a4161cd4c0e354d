// Fails when server/README.md's "Folders of src/" does not describe exactly the folders of
// server/src: a new feature gets its line, and a line for a folder that is gone goes.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const readme = readFileSync(path.join(root, 'server/README.md'), 'utf8');
const heading = '## Folders of `src/`';
const start = readme.indexOf(heading);
if (start === -1) {
  console.error(`server/README.md has no "${heading}" section`);
  process.exit(1);
}
const section = readme.slice(start + heading.length).split(/\n## /)[0] ?? '';
const described = new Set([...section.matchAll(/^- `src\/([^/`]+)\/`/gm)].map((match) => match[1]));
const folders = new Set(
  readdirSync(path.join(root, 'server/src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name),
);
const missing = [...folders].filter((name) => !described.has(name)).sort();
const gone = [...described].filter((name) => !folders.has(name)).sort();
for (const name of missing) console.error(`server/README.md does not describe server/src/${name}/`);
for (const name of gone)
  console.error(`server/README.md describes server/src/${name}/, which is gone`);
if (missing.length > 0 || gone.length > 0) process.exit(1);
console.log(`server/README.md describes the ${folders.size} folders of server/src`);
