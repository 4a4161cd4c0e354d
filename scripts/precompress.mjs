// Writes .br (brotli, quality 11) and .gz (gzip -9) beside every compressible file of the built
// web app, once, after the build. The server's @fastify/static (preCompressed: true) sends them
// to browsers that accept them, so no request pays for compression (docs/decisions/034-static-compression.md).
// Usage: node scripts/precompress.mjs [dir] (default web/dist)
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = path.resolve(root, process.argv[2] ?? 'web/dist');
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest|xml)$/;
const MIN_BYTES = 512;

let files = 0;
let before = 0;
let after = 0;
function walk(current) {
  for (const entry of readdirSync(current)) {
    const file = path.join(current, entry);
    if (statSync(file).isDirectory()) {
      walk(file);
      continue;
    }
    if (!COMPRESSIBLE.test(entry)) continue;
    const content = readFileSync(file);
    if (content.length < MIN_BYTES) continue;
    const brotli = brotliCompressSync(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    });
    writeFileSync(`${file}.br`, brotli);
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    files += 1;
    before += content.length;
    after += brotli.length;
  }
}
walk(dir);
console.info(
  `precompressed ${files} files in ${path.relative(root, dir) || dir}: ${(before / 1000).toFixed(0)} KB → ${(after / 1000).toFixed(0)} KB brotli`,
);
