// The server as one module (server/dist/main.bundle.js), which `npm start` and the release package
// run: its ~650 module files loaded one by one cost about 18 MB of memory and most of the start
// time more than one bundle of the same code (docs/performance.md, Footprint).
//   node scripts/bundle-server.mjs [server/dist/main.js] [server/dist/main.bundle.js]
// Left outside it: native addons, packages that read their own files at run time (swagger,
// swagger-ui: loaded at the first /api/docs request, decision 186), and those loaded only when
// configured (pg, ioredis, nodemailer, prom-client).
// What the server imports with `import()` at its first use (passkeys, two-factor setup, OIDC,
// CalDAV, CSV import, push, the inbox's mail: server/src/shared/on-first-use.ts) goes to chunks
// of its own in server/dist/chunks/, beside the bundle, read only when first needed (decisions
// 097, 157).
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Bundles `entry` (the built server's main.js) into `outfile`. */
export async function bundleServer(
  entry = path.join(root, 'server/dist/main.js'),
  outfile = path.join(path.dirname(entry), 'main.bundle.js'),
) {
  const outdir = path.dirname(outfile);
  const chunks = path.join(outdir, 'chunks');
  // Chunks are named by their content's hash: those of an earlier build would pile up.
  rmSync(chunks, { recursive: true, force: true });
  const { metafile } = await build({
    entryPoints: { [path.basename(outfile, '.js')]: entry },
    outdir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
    plugins: [globOnFirstUse, asciiChrono],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // Whitespace and syntax only: identifiers keep their names, so functions and classes keep
    // theirs in stack traces and logs (avvio names plugins after them). esbuild's keepNames with
    // full minification measured 25 MB more at start than this; full minification only 3 MB less.
    minifyWhitespace: true,
    minifySyntax: true,
    // The packages' licence comments go to main.bundle.js.LEGAL.txt: one non-ASCII letter among
    // them made V8 hold the whole 3 MB source as a two-byte string (6 MB of heap).
    legalComments: 'external',
    logLevel: 'warning',
    external: [
      'better-sqlite3',
      '@node-rs/argon2',
      '@fastify/swagger',
      '@fastify/swagger-ui',
      'pg',
      'ioredis',
      'nodemailer',
      'prom-client',
    ],
    // CommonJS packages inside an ES module bundle still call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __tallyCreateRequire } from 'node:module'; const require = __tallyCreateRequire(import.meta.url);",
    },
  });
  // esbuild escapes non-ASCII letters in strings but not in regular expressions; one such letter
  // made V8 hold the whole bundle's source as UTF-16 (8.7 MB of native memory for the 4.4 MB
  // file: docs/performance.md, Footprint). Escape it in the source (\uXXXX) instead.
  for (const output of Object.keys(metafile.outputs)) {
    if (output.endsWith('.js')) refuseNonAscii(path.resolve(output));
  }
  refuseLoadedAtStart(
    metafile,
    Object.keys(metafile.outputs).find((output) => path.resolve(output) === outfile),
  );
  return outfile;
}

/** Packages that wait for their first use (decisions 097, 157): none may be part of the start. */
const FIRST_USE_ONLY =
  /(^|\/)node_modules\/(@simplewebauthn\/server|otpauth|qrcode|openid-client|@xmldom\/xmldom|ical\.js|csv-parse|web-push|imapflow|mailparser|turndown|glob|chrono-node|@opentelemetry\/[\w.-]+)\//;

/**
 * Modules left outside the bundle that no ES import at start may name (decision 186): the API
 * docs' packages wait for the first /api/docs request, and an import of node:http makes Node read
 * all its exports, whose WebSocket loads undici (server/src/shared/http-request.ts).
 */
const NOT_IMPORTED_AT_START = /^(@fastify\/swagger(-ui)?|(node:)?http)$/;

/**
 * Fails the build when the bundle, or a chunk it imports statically, holds one of those
 * packages: a static import of it anywhere on the server's import graph loads it at start again.
 */
function refuseLoadedAtStart(metafile, entry) {
  const atStart = new Set();
  const outside = new Set();
  const visit = (output) => {
    if (atStart.has(output)) return;
    atStart.add(output);
    for (const imported of metafile.outputs[output].imports) {
      if (imported.kind !== 'import-statement') continue;
      if (imported.external) outside.add(imported.path);
      else visit(imported.path);
    }
  };
  visit(entry);
  const early = [
    ...[...atStart].flatMap((output) =>
      Object.keys(metafile.outputs[output].inputs).filter((input) => FIRST_USE_ONLY.test(input)),
    ),
    ...[...outside].filter((name) => NOT_IMPORTED_AT_START.test(name)),
  ];
  if (early.length > 0) {
    throw new Error(
      `Loaded at start, though only needed at first use (import it with onFirstUse, decisions 097, 157, 186; node:http through server/src/shared/http-request.ts): ${early.slice(0, 5).join(', ')}`,
    );
  }
}

/** Fails the build naming the line of the first non-ASCII byte in `outfile`. */
function refuseNonAscii(outfile) {
  const source = readFileSync(outfile, 'latin1');
  const at = source.search(/[\x80-\xff]/);
  if (at >= 0) {
    const line = source.slice(0, at).split('\n').length;
    const context = readFileSync(outfile, 'utf8').split('\n')[line - 1] ?? '';
    const column = Buffer.from(
      source.slice(source.lastIndexOf('\n', at) + 1, at),
      'latin1',
    ).toString('utf8').length;
    throw new Error(
      `${path.relative(root, outfile)}:${line}: a non-ASCII letter in the bundle (escape it as \\uXXXX in the source): ${context.slice(Math.max(0, column - 60), column + 20)}`,
    );
  }
}

/**
 * @fastify/static requires glob when it loads but calls it only with `wildcard: false`, which
 * Tally does not set (server/src/plugins/web-app.ts): its `glob` here imports the package at
 * the first call, so glob's code (about 100 KB) waits in a chunk instead of running at start.
 */
const globOnFirstUse = {
  name: 'glob-on-first-use',
  setup(build) {
    build.onResolve({ filter: /^glob$/ }, (args) =>
      args.namespace === 'file' && /[\\/]@fastify[\\/]static[\\/]index\.js$/.test(args.importer)
        ? {
            path: 'glob',
            namespace: 'glob-on-first-use',
            pluginData: { resolveDir: path.dirname(args.importer) },
          }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'glob-on-first-use' }, (args) => ({
      contents:
        "module.exports = { glob: (...args) => import('glob').then((m) => m.glob(...args)) };",
      resolveDir: args.pluginData.resolveDir,
      loader: 'js',
    }));
  },
};

/**
 * chrono-node (quick add's reader, contract/src/quick-add-text.ts) writes full-width colons and
 * parentheses and dashes into its patterns as letters; esbuild escapes them in strings but not in
 * regular expressions. Each becomes its \uXXXX escape as the file is read (an identity escape
 * before one loses its backslash, so the escape means the same letter in a string and a pattern).
 */
const asciiChrono = {
  name: 'ascii-chrono',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]chrono-node[\\/].*\.js$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(
        /(\\*)([\u0080-\uffff])/g,
        (_, slashes, letter) =>
          (slashes.length % 2 === 1 ? slashes.slice(1) : slashes) +
          `\\u${letter.charCodeAt(0).toString(16).padStart(4, '0')}`,
      ),
      loader: 'js',
    }));
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [entry, outfile] = process.argv.slice(2);
  await bundleServer(entry && path.resolve(entry), outfile && path.resolve(outfile));
}
