#!/usr/bin/env node
// `tally …` (npx tally in a checkout): the operator's command line of the built server.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(built)) {
  console.error('Tally is not built yet: run `npm run build` (or `npm start` once) first.');
  process.exit(1);
}
const { runCli } = await import(built.href);
process.exitCode = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
