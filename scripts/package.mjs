// `npm run package`: builds Tally and lays out a release that runs with its runtime dependencies
// only, release/tally-<version>/ and release/tally-<version>.tgz:
//   bin/tally-server    serves Tally with its Node flags (what `npm start`, the systemd unit and
//                       the Docker image run; server/bin/node-flags.mjs)
//   server.js           `node server.js` serves Tally with V8's defaults
//   bin/tally           the operator's command line (`bin/tally user list`…)
//   server/dist/        the compiled server (no tests, types or source maps)
//   web/dist/           the built web app, precompressed
//   tally.service       a hardened systemd unit (deploy/systemd/tally.service)
//   node_modules/       the server's dependencies and theirs, nothing else (@tally/contract built)
// The dependencies are copied from this checkout's node_modules, which `npm ci` installed from
// package-lock.json: the same versions the tests ran, native modules (better-sqlite3, argon2)
// already built for this platform, and no registry needed. The Dockerfile runs these same steps
// (`npm ci`, then this script) in its build stage. docs/decisions/057-release-package.md.
// Usage: node scripts/package.mjs [--no-build]
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launcherScript } from '../server/bin/node-flags.mjs';
import { bundleServer } from './bundle-server.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const at = (...parts) => path.join(root, ...parts);
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

const rootPackage = readJson(at('package.json'));
const serverPackage = readJson(at('server/package.json'));
const contractPackage = readJson(at('contract/package.json'));
const version = rootPackage.version;
const name = `tally-${version}`;
const releaseDir = at('release');
const out = path.join(releaseDir, name);
const tarball = path.join(releaseDir, `${name}.tgz`);

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

if (!process.argv.includes('--no-build')) {
  run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '--silent']);
}
for (const built of ['server/dist/main.js', 'contract/dist/index.js', 'web/dist/index.html']) {
  if (!existsSync(at(built))) {
    console.error(`${built} is missing: run npm run build first`);
    process.exit(1);
  }
}

rmSync(out, { recursive: true, force: true });
rmSync(tarball, { force: true });
mkdirSync(out, { recursive: true });

/**
 * A compiled folder's JavaScript whose TypeScript source still exists: tsc -b leaves the output
 * of deleted sources behind, and tests, declarations and source maps are of no use at run time.
 */
function copyCompiled(sourceDir, distDir, target) {
  for (const entry of readdirSync(distDir, { withFileTypes: true })) {
    const from = path.join(distDir, entry.name);
    if (entry.isDirectory()) {
      copyCompiled(path.join(sourceDir, entry.name), from, path.join(target, entry.name));
      continue;
    }
    if (!entry.name.endsWith('.js')) continue;
    if (!existsSync(path.join(sourceDir, entry.name.replace(/\.js$/, '.ts')))) continue;
    mkdirSync(target, { recursive: true });
    cpSync(from, path.join(target, entry.name));
  }
}
copyCompiled(at('server/src'), at('server/dist'), path.join(out, 'server/dist'));
// Without the source maps: the server would not serve them anyway (docs/decisions/074-framing-caching-and-source-maps.md).
cpSync(at('web/dist'), path.join(out, 'web/dist'), {
  recursive: true,
  filter: (from) => !from.endsWith('.map'),
});
mkdirSync(path.join(out, 'server/bin'), { recursive: true });
for (const file of ['tally.mjs', 'serve.mjs', 'require-node.mjs']) {
  cpSync(at('server/bin', file), path.join(out, 'server/bin', file));
}
writeFileSync(
  path.join(out, 'server/package.json'),
  `${JSON.stringify({ name: serverPackage.name, version, private: true, type: 'module' }, null, 2)}\n`,
);

// The workspace package the server imports at run time, as a plain folder (it is a symlink in
// the checkout).
const contractOut = path.join(out, 'node_modules/@tally/contract');
copyCompiled(at('contract/src'), at('contract/dist'), path.join(contractOut, 'dist'));
writeFileSync(
  path.join(contractOut, 'package.json'),
  `${JSON.stringify(
    {
      name: contractPackage.name,
      version,
      private: true,
      type: 'module',
      // Only the built files: the @tally/source condition points at TypeScript left behind.
      exports: Object.fromEntries(
        Object.entries(contractPackage.exports).map(([key, value]) => [
          key,
          { default: value.default },
        ]),
      ),
      dependencies: contractPackage.dependencies,
    },
    null,
    2,
  )}\n`,
);

/**
 * Where Node would find `dependency` from a package in `fromDir`: the nearest node_modules up
 * to the checkout's root (npm hoists most packages to the root; a few sit nested).
 */
function resolvePackage(fromDir, dependency) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', dependency);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || path.dirname(dir) === dir) return null;
  }
}

// Files inside packages that nothing loads at run time: better-sqlite3's C sources, build
// intermediates and the prebuilt addons of other platforms (it loads
// prebuilds/<platform>-<arch>.node, or linuxmusl-<arch>.node on musl).
const ownPrebuilds = [`${process.platform}-${process.arch}.node`, `linuxmusl-${process.arch}.node`];
const otherPlatform = (file) =>
  path.basename(path.dirname(file)) === 'prebuilds' &&
  file.includes(`${path.sep}better-sqlite3${path.sep}`) &&
  !ownPrebuilds.includes(path.basename(file));
const UNUSED = [
  'better-sqlite3/deps',
  'better-sqlite3/src',
  'better-sqlite3/build/Release/obj',
  'better-sqlite3/build/Release/obj.target',
  'better-sqlite3/build/Release/.deps',
  'better-sqlite3/build/Release/sqlite3.a',
  'better-sqlite3/build/Release/test_extension.node',
  'better-sqlite3/build/deps',
  'better-sqlite3/build/Release/.deps',
];
const unused = (file) =>
  otherPlatform(file) || UNUSED.some((suffix) => file.endsWith(path.join('node_modules', suffix)));

const copied = new Set();
const missing = [];
/** Copies a package folder (without its nested node_modules) and, in turn, what it needs. */
function copyPackage(dir) {
  if (copied.has(dir)) return;
  copied.add(dir);
  const manifest = readJson(path.join(dir, 'package.json'));
  cpSync(dir, path.join(out, path.relative(root, dir)), {
    recursive: true,
    dereference: true,
    filter: (file) => file !== path.join(dir, 'node_modules') && !unused(file),
  });
  const optionalPeers = Object.entries(manifest.peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta.optional)
    .map(([peer]) => peer);
  const needed = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}).filter((peer) => !optionalPeers.includes(peer)),
  ];
  for (const dependency of needed) {
    const found = resolvePackage(dir, dependency);
    if (found) copyPackage(found);
    else missing.push(`${dependency} (for ${manifest.name})`);
  }
  // Platform builds (e.g. @node-rs/argon2-linux-x64-gnu): only the ones npm installed here.
  for (const dependency of Object.keys(manifest.optionalDependencies ?? {})) {
    const found = resolvePackage(dir, dependency);
    if (found) copyPackage(found);
  }
}

const runtimeDependencies = Object.keys(serverPackage.dependencies).filter(
  (dependency) => dependency !== contractPackage.name,
);
for (const dependency of [...runtimeDependencies, ...Object.keys(contractPackage.dependencies)]) {
  const found = resolvePackage(at('server'), dependency);
  if (found) copyPackage(found);
  else missing.push(dependency);
}
if (missing.length > 0) {
  console.error(`Not installed (run npm ci first): ${missing.join(', ')}`);
  process.exit(1);
}

writeFileSync(
  path.join(out, 'package.json'),
  `${JSON.stringify(
    {
      name: 'tally',
      version,
      private: true,
      type: 'module',
      description: rootPackage.description,
      license: rootPackage.license,
      engines: rootPackage.engines,
      bin: { tally: 'bin/tally' },
      scripts: { start: 'bin/tally-server' },
      dependencies: {
        ...Object.fromEntries(
          runtimeDependencies.map((dependency) => [
            dependency,
            readJson(path.join(resolvePackage(at('server'), dependency), 'package.json')).version,
          ]),
        ),
        [contractPackage.name]: 'file:node_modules/@tally/contract',
      },
    },
    null,
    2,
  )}\n`,
);
// The server as one module (scripts/bundle-server.mjs), as `npm start` runs it. The operator's
// command (bin/tally) runs the unbundled server/dist, which stays beside it.
await bundleServer(
  path.join(out, 'server/dist/main.js'),
  path.join(out, 'server/dist/main.bundle.js'),
);
writeFileSync(
  path.join(out, 'server.js'),
  `// \`node server.js\`: serves Tally (API and web app). Configuration: the environment, see README.md.\nimport './server/bin/serve.mjs';\n`,
);
mkdirSync(path.join(out, 'bin'), { recursive: true });
writeFileSync(
  path.join(out, 'bin/tally'),
  `#!/usr/bin/env node\n// The operator's command line: bin/tally user list, bin/tally backup FILE… (README.md).\nimport '../server/bin/tally.mjs';\n`,
);
chmodSync(path.join(out, 'bin/tally'), 0o755);
// The launcher `npm start`, the systemd unit and the Docker image run: the server with the Node
// flags for its database, in one process (server/bin/node-flags.mjs).
writeFileSync(path.join(out, 'bin/tally-server'), launcherScript());
chmodSync(path.join(out, 'bin/tally-server'), 0o755);
for (const file of ['README.md', 'LICENSE', 'CHANGELOG.md']) {
  if (existsSync(at(file))) cpSync(at(file), path.join(out, file));
}
// The hardened systemd unit (deploy/systemd/tally.service), for /opt/tally.
cpSync(at('deploy/systemd/tally.service'), path.join(out, 'tally.service'));

run('tar', ['-czf', tarball, '-C', releaseDir, name]);

function folderBytes(target) {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(target).reduce((sum, entry) => sum + folderBytes(path.join(target, entry)), 0);
}
const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
console.info(
  `${path.relative(root, out)}: ${megabytes(folderBytes(out))} (${copied.size + 1} packages); ${path.relative(root, tarball)}: ${megabytes(statSync(tarball).size)}`,
);
