// `npm start`: builds whatever is out of date, then serves Tally (API + web app) on PORT (3000).
import '../server/bin/require-node.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverNodeFlags } from '../server/bin/node-flags.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const at = (...parts) => path.join(root, ...parts);

function newestMtime(target, skip = ['node_modules', 'dist']) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    if (skip.includes(entry)) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry), skip));
  }
  return newest;
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: false });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

// TypeScript's build mode is incremental: it only recompiles what changed.
run(npx, ['tsc', '-b', 'contract', 'server']);
const bundle = at('server/dist/main.bundle.js');
// The bundle's own outputs (its chunks and licence file) are not what it is built from.
const compiled = ['server/dist', 'contract/dist'].map((d) =>
  newestMtime(at(d), ['main.bundle.js', 'main.bundle.js.LEGAL.txt', 'chunks']),
);
if (newestMtime(bundle) < Math.max(...compiled)) {
  run(process.execPath, [at('scripts/bundle-server.mjs')]);
}

const webSources = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'contract/src',
];
const webBuilt = newestMtime(at('web/dist/index.html'));
if (webBuilt === 0 || Math.max(...webSources.map((s) => newestMtime(at(s)))) > webBuilt) {
  console.log('Building the web app...');
  run(npx, ['vite', 'build', '--logLevel', 'warn', '--config', 'web/vite.config.ts', 'web']);
}

// The server's own process, with the Node flags for its database (server/bin/node-flags.mjs).
const server = spawn(process.execPath, [...serverNodeFlags(), at('server/bin/serve.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
