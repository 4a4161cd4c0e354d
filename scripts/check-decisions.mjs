// The decision records (docs/decisions), checked as `npm run lint` and `npm test` run them:
// - a record that amends or supersedes another is named in that other record too (a reader who
//   opens the older record learns it changed);
// - a record speaks for itself: no issue numbers, no specification or decision file outside the
//   repository (SPEC.md, DECISIONS.md), no link that leaves the repository's folders.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = path.join(root, 'docs/decisions');
const records = readdirSync(dir).filter((name) => /^\d{3}-.+\.md$/.test(name));
const text = new Map(records.map((name) => [name, readFileSync(path.join(dir, name), 'utf8')]));
const problems = [];

/** The records a clause of the header links to: `[045](045-sessions.md)`. */
const linksIn = (clause) => [...clause.matchAll(/\]\((\d{3}-[^)#]+\.md)/g)].map((m) => m[1]);

for (const [name, body] of text) {
  // The header: everything before the context (title, date, status and its amendments).
  const header = body.split(/^Context:/m)[0] ?? '';
  // "amends [046](…) and [050](…); amended by [092](…)": only the clauses that change an older
  // record, not those naming what changed this one.
  for (const clause of header.replace(/\n/g, ' ').split(/;|\.\s/)) {
    if (!/\b(amends|amending|supersedes|superseding)\b/i.test(clause)) continue;
    const own = clause.replace(/\b(amended|superseded) by\b.*$/i, '');
    for (const older of linksIn(own)) {
      const olderText = text.get(older);
      if (olderText === undefined)
        problems.push(`${name}: links to ${older}, which does not exist`);
      else if (!olderText.includes(`(${name}`))
        problems.push(`${name} amends or supersedes ${older}, which does not link back to it`);
    }
  }
  for (const [pattern, what] of [
    [/\bissues? #?\d+/i, 'an issue number'],
    [/\bSPEC\.md\b/, 'SPEC.md (outside the repository)'],
    [/\bDECISIONS\.md\b/, 'DECISIONS.md (outside the repository)'],
    [/\]\((?:\.\.\/){3,}/, 'a link outside the repository'],
  ]) {
    const line = body.split('\n').findIndex((l) => pattern.test(l));
    if (line >= 0) problems.push(`${name}:${line + 1}: cites ${what}`);
  }
}

if (problems.length) {
  console.error(`Decision records (docs/decisions):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `Decision records: ${records.length} link both ways and cite nothing outside the repository`,
);
